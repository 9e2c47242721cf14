import type { Tenant } from '../domain/auth/tenant';
import { memberKey } from './entity-keys';
import { fromIndexSk, indexSk } from './keys';
import { queryPage } from './query';
import { updateItem, type Write } from './transact';
import { K } from './registry/registry';

/**
 * A member whose removal has not finished unassigning their conversations carries gsi1pk=MEMBERUNASSIGN
 * gsi1sk=<started>#<tenant>#<id>: the sparse index the `finish-member-removals` timer reads.
 */
const UNASSIGN_INDEX = K.MEMBERUNASSIGN;

/** The attributes that put a member whose removal starts at `now` on the index. */
export const removalPending = (tenant: Tenant, id: string, now: Date) => ({
  gsi1pk: UNASSIGN_INDEX,
  gsi1sk: indexSk(now.toISOString(), tenant, id),
});

/** Takes the member off the index once their removal is finished. */
export const removalFinished = (tenant: Tenant, id: string): Write =>
  updateItem(memberKey(tenant, id), 'REMOVE gsi1pk, gsi1sk', { condition: 'attribute_exists(pk)' });

/** Removals whose unassignment a crash interrupted, oldest first, started before `before`. */
export const pendingRemovals = async (before: Date, limit: number) => {
  const { items } = await queryPage({ index: 'gsi1', pk: UNASSIGN_INDEX, skBelow: before.toISOString() }, { limit });
  return items.map((i) => fromIndexSk(i.gsi1sk as string));
};
