import { storedTenant, type Tenant } from '../domain/auth/tenant';
import { queryPage } from './query';
import { member } from './registry/team';
import { updateItem, type Write } from './transact';

/**
 * A member whose removal has not finished unassigning their conversations is on the sparse index (gsi1,
 * by removal time) that the `finish-member-removals` timer reads.
 */

/** The attributes that put a member whose removal starts at `now` on the index. */
export const removalPending = (tenant: Tenant, id: string, now: Date) => member.index('gsi1', { removedAt: now.toISOString(), tenant, id });

/** Takes the member off the index once their removal is finished. */
export const removalFinished = (tenant: Tenant, id: string): Write =>
  updateItem(member.key({ tenant, id }), 'REMOVE gsi1pk, gsi1sk', { condition: 'attribute_exists(pk)' });

/** Removals whose unassignment a crash interrupted, oldest first, started before `before`. */
export const pendingRemovals = async (before: Date, limit: number) => {
  const { items } = await queryPage({ index: 'gsi1', pk: member.build('gsi1pk', {}), skBelow: before.toISOString() }, { limit });
  return items.map((i) => {
    const { tenant, id } = member.read('gsi1sk', i.gsi1sk);
    return { tenant: storedTenant(tenant), id };
  });
};
