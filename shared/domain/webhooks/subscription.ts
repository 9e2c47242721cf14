import { randomBytes } from 'node:crypto';
import * as z from 'zod';
import { ConflictError } from '../errors';
import { isValidPattern, matchesAny } from './event-patterns';

/** Subscriptions per workspace; fan-out reads them all in one query page. */
export const MAX_SUBSCRIPTIONS = 100;
/** Fast-schedule-exhausted deliveries in a row that deactivate a subscription. */
export const DEACTIVATE_AFTER_FAILURES = 100;

const url = z
  .string()
  .max(2048)
  .refine((v) => URL.canParse(v), 'Must be an absolute URL')
  .refine((v) => !URL.canParse(v) || new URL(v).protocol === 'https:', 'Must use https')
  .refine((v) => !URL.canParse(v) || (!new URL(v).username && !new URL(v).password), 'Must not carry credentials')
  .transform((v) => new URL(v).href);

const events = z
  .array(z.string().max(100))
  .min(1, 'Must list at least one event type')
  .max(100)
  .superRefine((list, ctx) => {
    const unknown = list.filter((e) => !isValidPattern(e));
    if (unknown.length > 0) ctx.addIssue({ code: 'custom', message: `Unknown event type: ${unknown.join(', ')}` });
  })
  .transform((list) => [...new Set(list)]);

/** Printable ASCII, so HMAC keys are the same bytes for every verifier (Standard Webhooks raw format). */
const secret = z.string().min(16).max(256).regex(/^[\x21-\x7e]+$/, 'Must be printable ASCII without spaces');

export const CreateSubscription = z.strictObject({ url, events, secret: secret.optional(), active: z.boolean().optional() });
export const UpdateSubscription = z.strictObject({ url: url.optional(), events: events.optional(), active: z.boolean().optional() });
export type CreateSubscription = z.infer<typeof CreateSubscription>;
export type UpdateSubscription = z.infer<typeof UpdateSubscription>;

export interface Subscription {
  _id: string;
  workspaceId: string;
  url: string;
  events: string[];
  active: boolean;
  secret: string;
  consecutiveFailures: number;
  /** When the subscription last became active; events from before it are never delivered. */
  activatedAt?: string;
  deactivatedAt?: string;
  deactivationReason?: 'manual' | 'gone_410' | 'consecutive_failures';
  createdAt: string;
  updatedAt: string;
}

export const generateSecret = (): string => `whs_${randomBytes(32).toString('base64url')}`;

/** The view every response gets: never the secret. */
export const publicSubscription = ({ secret: _secret, ...rest }: Subscription) => rest;

/** Whether an event that occurred at `occurredAt` goes to this subscription. */
export const receives = (sub: Subscription, eventType: string, occurredAt: string): boolean =>
  sub.active && sub.activatedAt !== undefined && sub.activatedAt <= occurredAt && matchesAny(sub.events, eventType);

export const newSubscription = (_id: string, workspaceId: string, input: CreateSubscription, now: Date): Subscription => {
  const at = now.toISOString();
  const active = input.active ?? true;
  return {
    _id,
    workspaceId,
    url: input.url,
    events: input.events,
    active,
    secret: input.secret ?? generateSecret(),
    consecutiveFailures: 0,
    ...(active ? { activatedAt: at } : { deactivatedAt: at, deactivationReason: 'manual' as const }),
    createdAt: at,
    updatedAt: at,
  };
};

/** The fields a PATCH changes (`undefined` clears one): reactivation starts a new active period with a clean failure count. */
export const patchedFields = (before: Subscription, patch: UpdateSubscription, at: string): Record<string, unknown> => {
  const fields: Record<string, unknown> = { updatedAt: at };
  if (patch.url !== undefined) fields.url = patch.url;
  if (patch.events !== undefined) fields.events = patch.events;
  if (patch.active === true && !before.active) {
    Object.assign(fields, { active: true, activatedAt: at, consecutiveFailures: 0, deactivatedAt: undefined, deactivationReason: undefined });
  }
  if (patch.active === false && before.active) Object.assign(fields, { active: false, deactivatedAt: at, deactivationReason: 'manual' });
  return fields;
};

/** Manual retries and test pings go to active subscriptions only. */
export const assertActive = (sub: Pick<Subscription, 'active'>): void => {
  if (!sub.active) throw new ConflictError('The subscription is inactive; reactivate it with PATCH {"active": true} first');
};
