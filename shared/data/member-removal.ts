import type { Tenant } from '../domain/auth/tenant';
import { Missing } from '../domain/refusal';
import { removeMember, type Member } from '../domain/auth/member';
import { unassign } from '../domain/inbox/edits';
import { STATUSES } from '../domain/inbox/conversation';
import { listPartition, mutateConversation } from './conversations';
import { fromIndexSk, indexSk } from './keys';
import { memberKey, mutateMember, releaseEmail } from './members';
import { collect, queryAll, queryPage } from './query';
import { transact, updateItem } from './transact';
import { K } from './registry/registry';

/**
 * Removing a member: one transaction marks the member `removed` (from then on no write can assign them:
 * every assignment checks `activeMemberCheck` in its own transaction), releases the email and puts the
 * member on the sparse index gsi1pk=MEMBERUNASSIGN. Then each of their open conversations is unassigned in
 * its own transaction with its `inbox.conversation.unassigned` event (any number of them: no transaction
 * holds more than one), and the index entry goes. A crash in between leaves the entry, and the
 * `finish-member-removals` timer completes the work: nothing is lost and nothing is done twice.
 */
const UNASSIGN_INDEX = K.MEMBERUNASSIGN;

const unassignOpenConversations = async (tenant: Tenant, memberId: string, now: Date): Promise<void> => {
  for (const status of STATUSES.filter((s) => s !== 'closed')) {
    const items = await collect(queryAll({ pk: listPartition(tenant, `assignee:${memberId}:status:${status}`), consistent: true }));
    for (const item of items) {
      // A conversation deleted meanwhile has nothing left to unassign.
      await mutateConversation(
        tenant,
        item.conversationId as string,
        (c) => (c.assigneeId === memberId ? { change: unassign(c, now) } : undefined),
        now,
      ).catch((error: unknown) => {
        if (!(error instanceof Missing)) throw error;
      });
    }
  }
};

const finishRemoval = async (tenant: Tenant, memberId: string, now: Date): Promise<void> => {
  await unassignOpenConversations(tenant, memberId, now);
  await transact([updateItem(memberKey(tenant, memberId), 'REMOVE gsi1pk, gsi1sk', { condition: 'attribute_exists(pk)' })]);
};

export const removeMemberById = async (tenant: Tenant, id: string, now: Date): Promise<Member> => {
  const member = await mutateMember(
    tenant,
    id,
    (m) => removeMember(m, now),
    now,
    (m) => ({
      writes: [releaseEmail(tenant, m)],
      set: { gsi1pk: UNASSIGN_INDEX, gsi1sk: indexSk(now.toISOString(), tenant, id) },
    }),
  );
  await finishRemoval(tenant, id, now);
  return member;
};

/** Removals whose unassignment a crash interrupted, oldest first, started before `before`. */
export const pendingRemovals = async (before: Date, limit: number) => {
  const { items } = await queryPage({ index: 'gsi1', pk: UNASSIGN_INDEX, skBelow: before.toISOString() }, { limit });
  return items.map((i) => fromIndexSk(i.gsi1sk as string));
};

export const resumeRemoval = async (tenant: Tenant, id: string, now: Date): Promise<boolean> => {
  await finishRemoval(tenant, id, now);
  return true;
};
