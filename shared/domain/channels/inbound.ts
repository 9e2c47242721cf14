import * as z from 'zod';
import { OBJECT_ID } from '../../ids';
import { IncomingSender, messageContent, hasBody } from '../inbox/message';
import { built } from '../built';

/** The header that carries `sha256=<hex HMAC-SHA256(signing secret, raw body)>` on every inbound call. */
export const INBOUND_SIGNATURE_HEADER = 'X-Parley-Signature';

/** The largest raw email accepted (the whole request is capped at 256 KB anyway). */
const MAX_MIME_BYTES = 200_000;

const InboundMessage = /* @__PURE__ */ built(() =>
  z.strictObject({
    type: z.literal('message'),
    customer: IncomingSender,
    externalId: z.string().trim().min(1).max(200).optional(),
    conversationId: z.string().regex(OBJECT_ID).optional(),
    ...messageContent(),
  }),
);

/** A receipt for something the channel sent: `id` is the `id` of the outgoing POST (its idempotency key). */
const InboundStatus = /* @__PURE__ */ built(() =>
  z.strictObject({
    type: z.literal('status'),
    id: z.string().min(1).max(100),
    status: z.enum(['delivered', 'read', 'failed']),
    reason: z
      .string()
      .regex(/^[a-z][a-z0-9_]{0,63}$/, 'Must be a snake_case reason')
      .optional(),
  }),
);

/** An email as received, raw RFC 5322 MIME (email channels only). */
const InboundEmail = /* @__PURE__ */ built(() => z.strictObject({ type: z.literal('email'), mime: z.string().min(1).max(MAX_MIME_BYTES) }));

export const InboundEvent = /* @__PURE__ */ built(() =>
  z
    .discriminatedUnion('type', [InboundMessage, InboundStatus, InboundEmail])
    .refine((e) => e.type !== 'message' || hasBody(e), { message: 'Give content or at least one attachment', path: ['content'] }),
);
export type InboundEvent = z.output<typeof InboundEvent>;
