import * as z from 'zod';
import { isValidPattern } from '../../../shared/events/types';
import { DEFAULT_OVERLAP_SECONDS, MAX_OVERLAP_SECONDS } from '../../../shared/domain/webhooks/subscription';
import { DateTime } from '../../../shared/domain/dates';
import { built } from '../../../shared/domain/built';

const url = /* @__PURE__ */ built(() =>
  z
    .string()
    .max(2048)
    .refine((v) => URL.canParse(v), 'Must be an absolute URL')
    .refine((v) => !URL.canParse(v) || new URL(v).protocol === 'https:', 'Must use https')
    .refine((v) => !URL.canParse(v) || (!new URL(v).username && !new URL(v).password), 'Must not carry credentials')
    .transform((v) => new URL(v).href),
);

const events = /* @__PURE__ */ built(() =>
  z
    .array(z.string().max(100))
    .min(1, 'Must list at least one event type')
    .max(100)
    .superRefine((list, ctx) => {
      const unknown = list.filter((e) => !isValidPattern(e));
      if (unknown.length > 0) ctx.addIssue({ code: 'custom', message: `Unknown event type: ${unknown.join(', ')}` });
    })
    .transform((list) => [...new Set(list)]),
);

/** Printable ASCII, so HMAC keys are the same bytes for every verifier (Standard Webhooks raw format). */
const secret = /* @__PURE__ */ built(() =>
  z
    .string()
    .min(16)
    .max(256)
    .regex(/^[\x21-\x7e]+$/, 'Must be printable ASCII without spaces'),
);

export const CreateSubscription = /* @__PURE__ */ built(() =>
  z.strictObject({ url, events, secret: secret.optional(), active: z.boolean().optional() }),
);
export const UpdateSubscription = /* @__PURE__ */ built(() =>
  z.strictObject({ url: url.optional(), events: events.optional(), active: z.boolean().optional() }),
);

export const RotateSecret = /* @__PURE__ */ built(() =>
  z
    .strictObject({ overlapSeconds: z.number().int().min(0).max(MAX_OVERLAP_SECONDS).default(DEFAULT_OVERLAP_SECONDS) })
    .describe('`overlapSeconds`: how long the replaced secret keeps signing deliveries (0 replaces it at once)'),
);

export const RecoverDeliveries = /* @__PURE__ */ built(() =>
  z
    .strictObject({ since: DateTime, until: DateTime.optional() })
    .refine((b) => !b.until || Date.parse(b.since) < Date.parse(b.until), { message: 'Must be after since', path: ['until'] }),
);
