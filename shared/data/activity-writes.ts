import type { Tenant } from '../domain/auth/tenant';
import { buildEnvelope } from '../events/envelope';
import { activityListsOf, type Activity } from '../domain/crm/activity';
import type { Membership } from '../domain/lists';
import { tenantPk } from './keys';
import { membershipWrites } from './lists';
import { outboxItem } from './outbox';
import { createItem, type Write } from './transact';
import { K } from './registry/registry';
import { itemCodec } from './codec';
import { activity as activityView } from '../views/crm';

/**
 * Activities: pk=<tenant>#ACTIVITY#<id> sk=ACTIVITY. Timelines are lists (`all`, `lead:<id>`,
 * `customer:<id>`), newest first by `occurredAt`.
 */
export const activityKey = (tenant: Tenant, id: string) => ({ pk: tenantPk(tenant, K.ACTIVITY, id), sk: K.ACTIVITY });

export const activityMemberships = (a: Activity): Membership[] =>
  activityListsOf(a).map((list) => ({ list, order: `${a.occurredAt}#${a._id}` }));

/** `type` names every item's kind in the table, so the activity's own type is stored as `activityType`. */
const toItem = ({ type, ...fields }: Activity) => ({ ...fields, type: 'ACTIVITY', activityType: type });

const decode = itemCodec(activityView);
export const fromItem = (item: Record<string, unknown>): Activity => decode({ ...item, type: item.activityType });

/** Everything an activity's creation writes: the item, its timelines and `crm.activity.added`; system activities go inside their change's transaction. */
export const activityWrites = (tenant: Tenant, activity: Activity, now: Date): Write[] => [
  createItem({ ...activityKey(tenant, activity._id), ...toItem(activity) }),
  ...membershipWrites(tenant, 'activity', activity._id, [], activityMemberships(activity)),
  outboxItem(buildEnvelope('crm.activity.added', tenant, { activity }, { now })),
];
