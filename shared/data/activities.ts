import type { Tenant } from '../domain/auth/tenant';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import { Missing } from '../domain/refusal';
import { activityListsOf, timelineCountedOnRead, type Activity } from '../domain/crm/activity';
import type { Membership } from '../domain/lists';
import { tenantPk } from './keys';
import { membershipWrites, readItems, readList } from './lists';
import type { PageRequest } from './query';
import { createItem, deleteItem, updateItem, type Write } from './transact';
import { K } from './registry/registry';
import { itemCodec } from './codec';
import { activity as activityView } from '../views/crm';

/**
 * Activities: pk=<tenant>#ACTIVITY#<id> sk=ACTIVITY. Timelines are lists (`all`, `lead:<id>`,
 * `customer:<id>`), newest first by `occurredAt`; only `all` keeps a counter (timelineCountedOnRead). An activity outlives a deleted lead: it stays on its customer's timeline.
 */
const activityKey = (tenant: Tenant, id: string) => ({ pk: tenantPk(tenant, K.ACTIVITY, id), sk: K.ACTIVITY });

const memberships = (a: Activity): Membership[] => activityListsOf(a).map((list) => ({ list, order: `${a.occurredAt}#${a._id}` }));

/** `type` names every item's kind in the table, so the activity's own type is stored as `activityType`. */
const toItem = ({ type, ...fields }: Activity) => ({ ...fields, type: 'ACTIVITY', activityType: type });

const decode = itemCodec(activityView);
const fromItem = (item: Record<string, unknown>): Activity => decode({ ...item, type: item.activityType });

/** The writes that store a new activity: its item and its timelines. */
export const activityCreation = (tenant: Tenant, activity: Activity): Write[] => [
  createItem({ ...activityKey(tenant, activity._id), ...toItem(activity) }),
  ...membershipWrites(tenant, 'activity', activity._id, [], memberships(activity), { uncounted: timelineCountedOnRead }),
];

/** The writes that delete the activity as read (a `Missing` when it went meanwhile) and take it off its timelines. */
export const activityDeletion = (tenant: Tenant, activity: Activity): Write[] => [
  deleteItem(activityKey(tenant, activity._id), { condition: 'attribute_exists(pk)', onFail: () => new Missing('Activity') }),
  ...membershipWrites(tenant, 'activity', activity._id, memberships(activity), [], { uncounted: timelineCountedOnRead }),
];

/** The writes that clear the activity's link to its customer (conditional on it still naming that customer) and take it off that timeline. */
export const activityUnlinked = (tenant: Tenant, activity: Activity): Write[] => [
  updateItem(activityKey(tenant, activity._id), 'SET customerId = :none', {
    condition: 'customerId = :c',
    values: { ':none': null, ':c': activity.customerId },
    onFail: () => new Missing('Activity'),
  }),
  ...membershipWrites(tenant, 'activity', activity._id, memberships(activity), memberships({ ...activity, customerId: null }), {
    uncounted: timelineCountedOnRead,
  }),
];

export const getActivity = async (tenant: Tenant, id: string): Promise<Activity | undefined> => {
  const { Item } = await dynamo().send(
    new GetCommand({ TableName: config().TABLE_NAME, Key: activityKey(tenant, id), ConsistentRead: true }),
  );
  return Item ? fromItem(Item) : undefined;
};

/** One page of a timeline (`all`, `lead:<id>` or `customer:<id>`), newest first. */
export const timelinePage = async (tenant: Tenant, list: string, page: PageRequest) => {
  const { ids, total, nextCursor } = await readList(tenant, 'activity', list, page, {
    newestFirst: true,
    countOnRead: timelineCountedOnRead(list),
  });
  return {
    activities: await readItems(
      ids.map((id) => activityKey(tenant, id)),
      fromItem,
    ),
    total,
    nextCursor,
  };
};
