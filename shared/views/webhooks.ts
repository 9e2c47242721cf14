import * as z from 'zod';
import type { publicSubscription } from '../domain/webhooks/subscription';
import { exactly, id, time } from './common';

/** A subscription as every response shows it: without its secret. */
export const subscription = exactly<ReturnType<typeof publicSubscription>>()(
  z.strictObject({
    _id: id,
    workspaceId: id,
    livemode: z.boolean(),
    url: z.string(),
    events: z.array(z.string()),
    active: z.boolean(),
    consecutiveFailures: z.number().int().min(0),
    activatedAt: time.optional(),
    deactivatedAt: time.optional(),
    deactivationReason: z.enum(['manual', 'gone_410', 'consecutive_failures']).optional(),
    createdAt: time,
    updatedAt: time,
  }),
).meta({ id: 'WebhookSubscription' });
