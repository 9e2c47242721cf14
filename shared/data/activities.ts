import type { Tenant } from '../domain/auth/tenant';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import { Missing } from '../domain/refusal';
import { activityListsOf, timelineCountedOnRead, type Activity } from '../domain/crm/activity';
import type { Membership } from '../domain/lists';
import { bumpCounter } from './counters';
import { countParts, listCounter, membershipWrites, mergedListPage, readItems, readList, type ListPart } from './lists';
import type { PageRequest } from './query';
import { createItem, deleteItem, updateItem, type Write } from './transact';
import { activity as activityEntity } from './registry/crm';

/**
 * Activities: pk=<tenant>#ACTIVITY#<id> sk=ACTIVITY. Timelines are newest first by `occurredAt`
 * (`<occurredAt>#<id>`): the workspace's (`all`) is a list with a counter; a lead's and a customer's are the
 * activity's own index entries (gsi1pk=<tenant>#LEADTIMELINE#<lead id>, gsi2pk=<tenant>#CUSTTIMELINE#<customer
 * id>), counted on read. Activities stored before those entries keep their membership items in `lead:<id>` and
 * `customer:<id>` (they are never moved), so those timelines read both. An activity outlives a deleted lead: it
 * stays on its customer's timeline.
 */
const activityKey = (tenant: Tenant, id: string) => activityEntity.key({ tenant, id });

const leadTimeline = (tenant: Tenant, leadId: string) => activityEntity.build('gsi1pk', { tenant, leadId });
const customerTimeline = (tenant: Tenant, customerId: string) => activityEntity.build('gsi2pk', { tenant, customerId });

/** The timelines an activity is on as its index entries. */
const timelineKeys = (tenant: Tenant, { _id: id, occurredAt, leadId, customerId }: Activity) => ({
  ...(leadId ? activityEntity.index('gsi1', { tenant, leadId, occurredAt, id }) : {}),
  ...(customerId ? activityEntity.index('gsi2', { tenant, customerId, occurredAt, id }) : {}),
});

/** The lists an activity is a member of: `all`, and, when stored before its timelines were index entries, its lead's and customer's. */
const memberships = (a: Activity, indexed: boolean): Membership[] =>
  activityListsOf(a)
    .filter((list) => list === 'all' || !indexed)
    .map((list) => ({ list, order: { at: a.occurredAt, id: a._id } }));

/** `type` names every item's kind in the table, so the activity's own type is stored as `activityType`. */
const toItem = ({ type, ...fields }: Activity) => ({ ...fields, type: 'ACTIVITY', activityType: type });

/** An activity as read, and whether its lead's and customer's timelines are its index entries (false for one stored before). */
export interface StoredActivity {
  activity: Activity;
  indexed: boolean;
}

const fromItem = (item: Record<string, unknown>): Activity => {
  const { activityType, ...fields } = activityEntity.parse(item);
  return { ...fields, type: activityType };
};

/**
 * The writes that store a new activity: its item and its timelines. `counted: false` leaves the workspace's
 * timeline counter alone, for an activity another item counts (a move's, on its pipeline's counts item).
 */
export const activityCreation = (tenant: Tenant, activity: Activity, { counted = true } = {}): Write[] => [
  createItem({ ...activityKey(tenant, activity._id), ...toItem(activity), ...timelineKeys(tenant, activity) }),
  ...membershipWrites(tenant, 'activity', activity._id, [], memberships(activity, true), {
    uncounted: (list) => timelineCountedOnRead(list) || !counted,
  }),
];

/** What the workspace's timeline counter takes on for `n` activities another item stops counting (a pipeline deleted). */
export const timelineCounted = (tenant: Tenant, n: number): Write[] => (n ? [bumpCounter(tenant, listCounter('activity', 'all'), n)] : []);

/** The writes that delete the activity as read (a `Missing` when it went meanwhile) and take it off its timelines. */
export const activityDeletion = (tenant: Tenant, { activity, indexed }: StoredActivity): Write[] => [
  deleteItem(activityKey(tenant, activity._id), { condition: 'attribute_exists(pk)', onFail: () => new Missing('Activity') }),
  ...membershipWrites(tenant, 'activity', activity._id, memberships(activity, indexed), [], { uncounted: timelineCountedOnRead }),
];

/** The writes that clear the activity's link to its customer (conditional on it still naming that customer) and take it off that timeline. */
export const activityUnlinked = (tenant: Tenant, { activity, indexed }: StoredActivity): Write[] => [
  updateItem(activityKey(tenant, activity._id), `SET customerId = :none${indexed ? ' REMOVE gsi2pk, gsi2sk' : ''}`, {
    condition: 'customerId = :c',
    values: { ':none': null, ':c': activity.customerId },
    onFail: () => new Missing('Activity'),
  }),
  ...membershipWrites(
    tenant,
    'activity',
    activity._id,
    memberships(activity, indexed),
    memberships({ ...activity, customerId: null }, indexed),
    { uncounted: timelineCountedOnRead },
  ),
];

export const getActivity = async (tenant: Tenant, id: string): Promise<StoredActivity | undefined> => {
  const { Item } = await dynamo().send(
    new GetCommand({ TableName: config().TABLE_NAME, Key: activityKey(tenant, id), ConsistentRead: true }),
  );
  return Item ? { activity: fromItem(Item), indexed: Item.gsi1pk !== undefined || Item.gsi2pk !== undefined } : undefined;
};

/** The parts of a lead's or a customer's timeline: the list stored before, and the index entries. */
const timelineParts = (tenant: Tenant, list: string): ListPart[] | undefined => {
  const [owner, id] = list.split(':') as [string, string | undefined];
  if (id === undefined) return undefined;
  const pk =
    owner === 'lead'
      ? { index: 'gsi1' as const, pk: leadTimeline(tenant, id) }
      : { index: 'gsi2' as const, pk: customerTimeline(tenant, id) };
  return [{ list }, pk];
};

/** The activities of the workspace's timeline its counter does not count: those counted elsewhere (moves', on their pipelines). */
type CountedElsewhere = () => Promise<number>;

const timelineIds = async (tenant: Tenant, list: string, page: PageRequest, elsewhere: CountedElsewhere) => {
  const parts = timelineParts(tenant, list);
  if (!parts) {
    const [result, more] = await Promise.all([readList(tenant, 'activity', list, page, { newestFirst: true }), elsewhere()]);
    return { ...result, total: result.total + more };
  }
  const [result, total] = await Promise.all([mergedListPage(tenant, 'activity', list, parts, page), countParts(tenant, 'activity', parts)]);
  return { ...result, total };
};

/**
 * One page of a timeline (`all`, `lead:<id>` or `customer:<id>`), newest first. A lead's or a customer's is
 * the merge of its stored list and its index entries, and is counted on read (timelineCountedOnRead). The
 * activities are read consistently, so one an index entry still names after it left the timeline is not shown.
 */
export const timelinePage = async (tenant: Tenant, list: string, page: PageRequest, elsewhere: CountedElsewhere) => {
  const { ids, total, nextCursor } = await timelineIds(tenant, list, page, elsewhere);
  const activities = await readItems(
    ids.map((id) => activityKey(tenant, id)),
    fromItem,
  );
  return { activities: activities.filter((a) => activityListsOf(a).includes(list)), total, nextCursor };
};
