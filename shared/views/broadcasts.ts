import * as z from 'zod';
import {
  Audience,
  BROADCAST_STATUSES,
  RECIPIENT_STATUSES,
  STAT_NAMES,
  type Broadcast,
  type Recipient,
} from '../domain/broadcasts/broadcast';
import { exactly, id, time } from './common';
import { built } from '../domain/built';

export const campaign = /* @__PURE__ */ built(() =>
  exactly<Broadcast>()(
    z.strictObject({
      _id: id,
      name: z.string(),
      channelId: id,
      audience: Audience,
      content: z.string(),
      subject: z.string().nullable(),
      status: z.enum(BROADCAST_STATUSES),
      scheduledAt: time.nullable(),
      startedAt: time.nullable(),
      completedAt: time.nullable(),
      failureReason: z.string().nullable(),
      stats: z.strictObject(
        Object.fromEntries(STAT_NAMES.map((n) => [n, z.number().int().min(0)])) as Record<(typeof STAT_NAMES)[number], z.ZodNumber>,
      ),
      createdAt: time,
      updatedAt: time,
    }),
  ).meta({ id: 'Broadcast' }),
);

export const recipient = /* @__PURE__ */ built(() =>
  exactly<Recipient>()(
    z.strictObject({
      broadcastId: id,
      customerId: id,
      status: z.enum(RECIPIENT_STATUSES),
      reason: z.string().nullable(),
      sentAt: time.nullable(),
      updatedAt: time,
    }),
  ).meta({ id: 'BroadcastRecipient' }),
);
