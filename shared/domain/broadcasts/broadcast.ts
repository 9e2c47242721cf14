import * as z from 'zod';
import { OBJECT_ID } from '../../ids';
import { DateTime } from '../dates';
import { ConflictError, ValidationError } from '../errors';
import { built } from '../built';

export const BROADCAST_STATUSES = ['draft', 'scheduled', 'sending', 'sent', 'failed', 'cancelled'] as const;
export type BroadcastStatus = (typeof BROADCAST_STATUSES)[number];

/** The largest audience by explicit ids, and the most tags one broadcast may target. */
const MAX_CUSTOMER_IDS = 1000;
const MAX_TAG_IDS = 20;
/** How far ahead a broadcast may be scheduled. */
const MAX_SCHEDULE_AHEAD_MS = 366 * 24 * 3600_000;

const Id = /* @__PURE__ */ built(() => z.string().regex(OBJECT_ID, 'Must be a 24-character hex id'));
const unique = (ids: string[]) => new Set(ids).size === ids.length;

/** Customers carrying any of `tagIds`, plus `customerIds`: each customer once. */
export const Audience = /* @__PURE__ */ built(() =>
  z
    .strictObject({
      tagIds: z.array(Id).max(MAX_TAG_IDS).refine(unique, 'Ids must be unique').optional(),
      customerIds: z.array(Id).max(MAX_CUSTOMER_IDS).refine(unique, 'Ids must be unique').optional(),
    })
    .refine((a) => (a.tagIds?.length ?? 0) + (a.customerIds?.length ?? 0) > 0, {
      message: 'Name at least one tag or customer',
      path: ['tagIds'],
    }),
);
export type Audience = z.output<typeof Audience>;

const Name = /* @__PURE__ */ built(() => z.string().trim().min(1).max(200));
const Content = /* @__PURE__ */ built(() => z.string().trim().min(1).max(10_000));
const Subject = /* @__PURE__ */ built(() => z.string().trim().min(1).max(255).nullable());

export const CreateBroadcast = /* @__PURE__ */ built(() =>
  z.strictObject({
    name: Name,
    channelId: Id,
    audience: Audience,
    content: Content,
    subject: Subject.optional(),
  }),
);
export type CreateBroadcast = z.output<typeof CreateBroadcast>;
export const UpdateBroadcast = /* @__PURE__ */ built(() =>
  z.strictObject({
    name: Name.optional(),
    channelId: Id.optional(),
    audience: Audience.optional(),
    content: Content.optional(),
    subject: Subject.optional(),
  }),
);
export type UpdateBroadcast = z.output<typeof UpdateBroadcast>;
export const ScheduleBroadcast = /* @__PURE__ */ built(() => z.strictObject({ at: DateTime }));

export interface Stats {
  recipients: number;
  sent: number;
  delivered: number;
  read: number;
  failed: number;
  skipped: number;
  cancelled: number;
}
export const STAT_NAMES = [
  'recipients',
  'sent',
  'delivered',
  'read',
  'failed',
  'skipped',
  'cancelled',
] as const satisfies readonly (keyof Stats)[];

export interface Broadcast {
  _id: string;
  name: string;
  channelId: string;
  audience: Audience;
  content: string;
  subject: string | null;
  status: BroadcastStatus;
  scheduledAt: string | null;
  startedAt: string | null;
  completedAt: string | null;
  failureReason: string | null;
  stats: Stats;
  createdAt: string;
  updatedAt: string;
}

const emptyStats = (): Stats => ({ recipients: 0, sent: 0, delivered: 0, read: 0, failed: 0, skipped: 0, cancelled: 0 });

export const newBroadcast = (_id: string, input: CreateBroadcast, now: Date): Broadcast => ({
  _id,
  name: input.name,
  channelId: input.channelId,
  audience: input.audience,
  content: input.content,
  subject: input.subject ?? null,
  status: 'draft',
  scheduledAt: null,
  startedAt: null,
  completedAt: null,
  failureReason: null,
  stats: emptyStats(),
  createdAt: now.toISOString(),
  updatedAt: now.toISOString(),
});

const refuse = (b: Broadcast, action: string) => new ConflictError(`A ${b.status} broadcast cannot be ${action}`, { status: b.status });

/** Drafts are edited freely; once scheduled or later, a broadcast's content is fixed. */
export const editDraft = (b: Broadcast, patch: UpdateBroadcast, now: Date): Broadcast | undefined => {
  const after = { ...b, ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) } as Broadcast;
  if (JSON.stringify(after) === JSON.stringify(b)) return undefined;
  if (b.status !== 'draft') throw refuse(b, 'edited');
  return { ...after, updatedAt: now.toISOString() };
};

/** draft or scheduled → scheduled at `at` (in the future, within a year). */
export const schedule = (b: Broadcast, at: string, now: Date): Broadcast => {
  if (b.status !== 'draft' && b.status !== 'scheduled') throw refuse(b, 'scheduled');
  const when = Date.parse(at);
  if (when <= now.getTime()) throw new ValidationError([{ path: 'at', message: 'Must be in the future' }]);
  if (when - now.getTime() > MAX_SCHEDULE_AHEAD_MS) throw new ValidationError([{ path: 'at', message: 'Must be within a year' }]);
  return { ...b, status: 'scheduled', scheduledAt: new Date(when).toISOString(), updatedAt: now.toISOString() };
};

/** draft or scheduled → sending, now (a scheduled one also when its time comes). */
export const startSending = (b: Broadcast, now: Date): Broadcast => {
  if (b.status !== 'draft' && b.status !== 'scheduled') throw refuse(b, 'sent');
  return { ...b, status: 'sending', startedAt: now.toISOString(), updatedAt: now.toISOString() };
};

/** draft, scheduled or sending → cancelled: recipients not yet sent to are never sent to. */
export const cancel = (b: Broadcast, now: Date): Broadcast => {
  if (b.status !== 'draft' && b.status !== 'scheduled' && b.status !== 'sending') throw refuse(b, 'cancelled');
  return { ...b, status: 'cancelled', completedAt: now.toISOString(), updatedAt: now.toISOString() };
};

/** Every recipient has an outcome once sent, failed, skipped and cancelled add up to the audience. */
export const allSettled = (s: Stats): boolean => s.sent + s.failed + s.skipped + s.cancelled >= s.recipients;

/** sending → sent, or failed when no recipient could be sent to although some were tried. */
export const complete = (b: Broadcast, s: Stats, now: Date): Broadcast => {
  const failed = s.sent === 0 && s.failed > 0;
  return {
    ...b,
    status: failed ? 'failed' : 'sent',
    failureReason: failed ? 'all_recipients_failed' : null,
    completedAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };
};

export const RECIPIENT_STATUSES = ['queued', 'sending', 'sent', 'delivered', 'read', 'failed', 'skipped', 'cancelled'] as const;
export type RecipientStatus = (typeof RECIPIENT_STATUSES)[number];

export interface Recipient {
  broadcastId: string;
  customerId: string;
  status: RecipientStatus;
  reason: string | null;
  sentAt: string | null;
  updatedAt: string;
}
