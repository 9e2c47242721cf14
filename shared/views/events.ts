import * as z from 'zod';
import { id, time } from './common';
import { built } from '../domain/built';

/** An event of the log as webhooks deliver it (the same envelope; `truncated` when its entities shrank to ids and links). */
export const event = /* @__PURE__ */ built(() =>
  z
    .strictObject({
      eventId: id,
      eventType: z.string(),
      workspaceId: id,
      livemode: z.boolean(),
      occurredAt: time,
      apiVersion: z.literal('v1'),
      data: z
        .record(z.string(), z.unknown())
        .describe("The type's data, as the catalog (GET /integrations/webhooks/event-types) describes it"),
      changes: z
        .record(z.string(), z.tuple([z.unknown(), z.unknown()]))
        .optional()
        .describe('On updates: field → [before, after]'),
      causedBy: z
        .strictObject({ workflowId: id, executionId: id, depth: z.number().int().min(0) })
        .optional()
        .describe('The workflow run that caused the event, and the chain depth'),
      truncated: z.literal(true).optional().describe('The event was too large: each entity in `data` is its `_id` (and a `link`)'),
    })
    .meta({ id: 'Event' }),
);

/** A realtime ticket: open a WebSocket to `url` before `expiresAt`, once. */
export const ticket = /* @__PURE__ */ built(() =>
  z
    .strictObject({
      ticket: z.string().describe('Single use; bound to the token, the workspace and the mode'),
      url: z.string().describe('The WebSocket URL, with the ticket in its query'),
      expiresAt: time,
    })
    .meta({ id: 'RealtimeTicket' }),
);
