import * as z from 'zod';
import { ConflictError } from '../errors';
import { built } from '../built';

/** Types the API adds; `stage_change` and `task_completed` are written by Parley itself, with the change they record. */
const USER_ACTIVITY_TYPES = ['note', 'call', 'email', 'meeting'] as const;
export const SYSTEM_ACTIVITY_TYPES = ['stage_change', 'task_completed'] as const;
export const ACTIVITY_TYPES = [...USER_ACTIVITY_TYPES, ...SYSTEM_ACTIVITY_TYPES] as const;
export type ActivityType = (typeof ACTIVITY_TYPES)[number];

export interface Activity {
  _id: string;
  type: ActivityType;
  leadId: string | null;
  customerId: string | null;
  subject: string | null;
  body: string | null;
  occurredAt: string;
  durationSeconds: number | null;
  /** What a system activity records: `{fromStageId, toStageId, …}` or `{taskId}`; null on the API's own. */
  details: Record<string, string | null> | null;
  createdAt: string;
}

export interface ActivityFields {
  type: (typeof USER_ACTIVITY_TYPES)[number];
  leadId?: string;
  customerId?: string;
  subject?: string;
  body?: string;
  occurredAt?: string;
  durationSeconds?: number;
}

export const ActivityType = /* @__PURE__ */ built(() => z.enum(USER_ACTIVITY_TYPES));

export const newActivity = (
  input: ActivityFields,
  links: { leadId: string | null; customerId: string | null },
  _id: string,
  now: Date,
): Activity => ({
  _id,
  type: input.type,
  ...links,
  subject: input.subject ?? null,
  body: input.body ?? null,
  occurredAt: input.occurredAt ? new Date(input.occurredAt).toISOString() : now.toISOString(),
  durationSeconds: input.durationSeconds ?? null,
  details: null,
  createdAt: now.toISOString(),
});

export const systemActivity = (
  type: (typeof SYSTEM_ACTIVITY_TYPES)[number],
  links: { leadId: string | null; customerId: string | null },
  subject: string,
  details: Record<string, string | null>,
  _id: string,
  now: Date,
): Activity => ({
  _id,
  type,
  ...links,
  subject,
  body: null,
  occurredAt: now.toISOString(),
  durationSeconds: null,
  details,
  createdAt: now.toISOString(),
});

/** System activities are the record of a change: they cannot be deleted through the API. */
export const assertDeletable = (a: Activity): void => {
  if ((SYSTEM_ACTIVITY_TYPES as readonly string[]).includes(a.type))
    throw new ConflictError('System activities cannot be deleted', { type: a.type });
};

/** Timelines an activity shows in, newest first by when it happened. */
export const activityListsOf = (a: Pick<Activity, 'leadId' | 'customerId'>): string[] => [
  'all',
  ...(a.leadId ? [`lead:${a.leadId}`] : []),
  ...(a.customerId ? [`customer:${a.customerId}`] : []),
];

/**
 * The workspace's timeline keeps a counter; one lead's or one customer's is counted when read: it holds that
 * record's history only (a key-only count of 20-odd members is one read unit), and two counter writes fewer
 * on every activity are worth more than a read unit on each page of it.
 */
export const timelineCountedOnRead = (list: string): boolean => list !== 'all';
