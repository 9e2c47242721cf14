import type { Tenant } from '../domain/auth/tenant';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import { objectId } from '../ids';
import { buildEnvelope } from '../events/envelope';
import { Refused, Missing } from '../domain/refusal';
import { assertDeletable, newActivity, type Activity, type ActivityFields } from '../domain/crm/activity';
import { activityKey, activityMemberships, activityWrites, fromItem } from './activity-writes';
import { linkChecks } from './crm-links';
import { getLead } from './leads';
import { membershipWrites, readItems, readList } from './lists';
import { outboxItem } from './outbox';
import type { PageRequest } from './query';
import { lostRace, retryOnConflict } from './retry';
import { deleteItem, transact } from './transact';

/** Activities added through the API, and timelines. An activity outlives a deleted lead: it stays on its customer's timeline. */
/** An activity on a lead and/or a customer (one at least); on a lead without a customer named, it also shows on the lead's customer. */
export const addActivity = async (tenant: Tenant, input: ActivityFields, now: Date): Promise<Activity> => {
  if (!input.leadId && !input.customerId) throw new Refused('activity_without_subject', 'Give leadId or customerId');
  const _id = objectId(now.getTime());
  return retryOnConflict(async () => {
    const lead = input.leadId ? await getLead(tenant, input.leadId) : undefined;
    if (input.leadId && !lead) throw new Refused('no_such_lead', 'No such lead in this workspace');
    const customerId = input.customerId ?? lead?.lead.customerId ?? null;
    const activity = newActivity(input, { leadId: input.leadId ?? null, customerId }, _id, now);
    await transact([...linkChecks(tenant, { leadId: activity.leadId, customerId }), ...activityWrites(tenant, activity, now)], lostRace);
    return activity;
  });
};

export const requireActivity = async (tenant: Tenant, id: string): Promise<Activity> => {
  const { Item } = await dynamo().send(
    new GetCommand({ TableName: config().TABLE_NAME, Key: activityKey(tenant, id), ConsistentRead: true }),
  );
  if (!Item) throw new Missing('Activity');
  return fromItem(Item);
};

/** Deletes an activity the API added (system activities are 409), with its `crm.activity.deleted` event. */
export const deleteActivity = (tenant: Tenant, id: string, now: Date): Promise<Activity> =>
  retryOnConflict(async () => {
    const activity = await requireActivity(tenant, id);
    assertDeletable(activity);
    await transact(
      [
        deleteItem(activityKey(tenant, id), { condition: 'attribute_exists(pk)', onFail: () => new Missing('Activity') }),
        ...membershipWrites(tenant, 'activity', id, activityMemberships(activity), []),
        outboxItem(buildEnvelope('crm.activity.deleted', tenant, { activity }, { now })),
      ],
      lostRace,
    );
    return activity;
  });

/** A timeline page, newest first: a lead's, a customer's, or the workspace's. */
export const listActivities = async (tenant: Tenant, filter: { leadId?: string; customerId?: string }, page: PageRequest) => {
  if (filter.leadId && filter.customerId) throw new Refused('timeline_of_lead_and_customer', 'Filter by leadId or customerId, not both');
  const list = filter.leadId ? `lead:${filter.leadId}` : filter.customerId ? `customer:${filter.customerId}` : 'all';
  const { ids, total, nextCursor } = await readList(tenant, 'activity', list, page, { newestFirst: true });
  return {
    activities: await readItems(
      ids.map((id) => activityKey(tenant, id)),
      fromItem,
    ),
    total,
    nextCursor,
  };
};
