import type { Tenant } from '../domain/auth/tenant';
import { Missing, Refused } from '../domain/refusal';
import { assertDeletable, newActivity, type Activity, type ActivityFields } from '../domain/crm/activity';
import { buildEnvelope } from '../events/envelope';
import { objectId } from '../ids';
import { activityCreation, activityDeletion, activityUnlinked, getActivity, timelinePage, type StoredActivity } from '../data/activities';
import { getCustomer } from '../data/customers';
import { getLead } from '../data/leads';
import { outboxItem } from '../data/outbox';
import { movesCounted } from '../data/pipelines';
import type { PageRequest } from '../data/query';
import { linkChecks } from '../data/references';
import { lostRace, retryOnConflict } from '../data/retry';
import type { Write } from '../data/transact';
import type { Unit } from '../data/unit';

/** Everything an activity's creation writes: the activity and `crm.activity.added`; system activities go inside their change's transaction. */
export const activityAdded = (tenant: Tenant, activity: Activity, now: Date, counting?: { counted: boolean }): Write[] => [
  ...activityCreation(tenant, activity, counting),
  outboxItem(buildEnvelope('crm.activity.added', tenant, { activity }, { now })),
];

/** An activity on a lead and/or a customer (one at least); on a lead without a customer named, it also shows on the lead's customer. */
export const addActivity = async (unit: Unit, tenant: Tenant, input: ActivityFields, now: Date): Promise<Activity> => {
  if (!input.leadId && !input.customerId) throw new Refused('activity_without_subject', 'Give leadId or customerId');
  const _id = objectId(now.getTime());
  return retryOnConflict(async () => {
    const lead = input.leadId ? await getLead(tenant, input.leadId) : undefined;
    if (input.leadId && !lead) throw new Refused('no_such_lead', 'No such lead in this workspace');
    const customerId = input.customerId ?? lead?.lead.customerId ?? null;
    const activity = newActivity(input, { leadId: input.leadId ?? null, customerId }, _id, now);
    await unit.commit([...linkChecks(tenant, { leadId: activity.leadId, customerId }), ...activityAdded(tenant, activity, now)], lostRace);
    return activity;
  });
};

const requireStored = async (tenant: Tenant, id: string): Promise<StoredActivity> => {
  const stored = await getActivity(tenant, id);
  if (!stored) throw new Missing('Activity');
  return stored;
};

export const requireActivity = async (tenant: Tenant, id: string): Promise<Activity> => (await requireStored(tenant, id)).activity;

/** Deletes an activity the API added (system activities are 409), with its `crm.activity.deleted` event. */
export const deleteActivity = (unit: Unit, tenant: Tenant, id: string, now: Date): Promise<Activity> =>
  retryOnConflict(async () => {
    const stored = await requireStored(tenant, id);
    const { activity } = stored;
    assertDeletable(activity);
    await unit.commit(
      [...activityDeletion(tenant, stored), outboxItem(buildEnvelope('crm.activity.deleted', tenant, { activity }, { now }))],
      lostRace,
    );
    return activity;
  });

/** A timeline page, newest first: a lead's, a customer's, or the workspace's. */
export const listActivities = async (tenant: Tenant, filter: { leadId?: string; customerId?: string }, page: PageRequest) => {
  if (filter.leadId && filter.customerId) throw new Refused('timeline_of_lead_and_customer', 'Filter by leadId or customerId, not both');
  const list = filter.leadId ? `lead:${filter.leadId}` : filter.customerId ? `customer:${filter.customerId}` : 'all';
  // The workspace's timeline: its counter, and the moves' activities its pipelines' counts items count.
  return timelinePage(tenant, list, page, () => movesCounted(tenant));
};

const owners = {
  leadId: async (tenant: Tenant, id: string) => {
    if (!(await getLead(tenant, id))) throw new Missing('Lead');
  },
  customerId: async (tenant: Tenant, id: string) => {
    if (!(await getCustomer(tenant, id))) throw new Missing('Customer');
  },
};
export type TimelineOwner = keyof typeof owners;

/** A lead's or a customer's timeline, newest first; `Missing` when that lead or customer is unknown. */
export const entityTimeline = async (tenant: Tenant, owner: TimelineOwner, id: string, page: PageRequest) => {
  await owners[owner](tenant, id);
  return listActivities(tenant, { [owner]: id }, page);
};

/**
 * Forgets an activity's customer (an erasure), with `extra` in the transaction: one on a lead stays on the
 * lead's timeline, unlinked; one on the customer alone is about nobody else, so it is deleted.
 */
export const forgetActivityCustomer = async (unit: Unit, tenant: Tenant, activity: Activity, extra: Write[]): Promise<void> => {
  // Read again: how it is stored decides its writes, and a timeline's index entries may lag a change.
  const stored = await getActivity(tenant, activity._id);
  if (stored?.activity.customerId !== activity.customerId) return;
  await unit
    .commit([...(activity.leadId ? activityUnlinked(tenant, stored) : activityDeletion(tenant, stored)), ...extra])
    .catch((error: unknown) => {
      // Unlinked or deleted meanwhile (by a run before a crash): nothing left to do.
      if (!(error instanceof Missing)) throw error;
    });
};
