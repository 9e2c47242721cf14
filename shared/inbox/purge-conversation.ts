import type { Tenant } from '../domain/auth/tenant';
import { buildEnvelope } from '../events/envelope';
import { deleteConversationFiles } from '../files/files';
import { conversationRemoval } from './conversation-removal';
import { deletePartitionRest, getClosedConversation, purgeFinished, purgeTombstone } from '../data/conversation-purge';
import { outboxItem } from '../data/outbox';
import { lostRace, retryOnConflict } from '../data/retry';
import type { Unit } from '../data/unit';

/** What one purge removed. */
export interface Purged {
  conversations: number;
  messages: number;
  files: number;
}

/**
 * Deletes a closed conversation for good, if it closed before `cutoff` (an ISO time): one transaction
 * deletes it as read (its lists, counters, tag links and its customer's count, with
 * `inbox.conversation.deleted`) and leaves a tombstone in its closed index entry; then `finishPurge` removes
 * its files and messages. To every reader it is whole until that transaction and gone after it; a crash after
 * it leaves the tombstone, which the next sweep finds and finishes. A conversation reopened (or closed
 * again later) before the transaction is left alone: the transaction is conditional on the version read.
 */
export const purgeClosedConversation = async (unit: Unit, tenant: Tenant, id: string, cutoff: string, now: Date): Promise<Purged> => {
  if (!(await deleteClosedConversation(unit, tenant, id, cutoff, now))) return { conversations: 0, messages: 0, files: 0 };
  return { conversations: 1, ...(await finishPurge(unit, tenant, id, now)) };
};

/** The purge's first step, its one transaction: whether the conversation was deleted (and its tombstone left). */
export const deleteClosedConversation = (unit: Unit, tenant: Tenant, id: string, cutoff: string, now: Date): Promise<boolean> =>
  retryOnConflict(async () => {
    const current = await getClosedConversation(tenant, id);
    if (current?.stored.conversation.status !== 'closed' || !current.closedAt || current.closedAt >= cutoff) return false;
    const { conversation } = current.stored;
    await unit.commit(
      [
        ...(await conversationRemoval(tenant, current.stored, now)),
        outboxItem(buildEnvelope('inbox.conversation.deleted', tenant, { conversation }, { now })),
        purgeTombstone(tenant, id, current.closedAt),
      ],
      lostRace,
    );
    return true;
  });

/**
 * The rest of a purge, safe to run again: the files the messages held (each record with its event; the
 * objects follow those events), every item left in the conversation's partition, then the tombstone.
 */
export const finishPurge = async (unit: Unit, tenant: Tenant, id: string, now: Date): Promise<Omit<Purged, 'conversations'>> => {
  const removed = await deleteConversationContents(unit, tenant, id, now);
  await unit.commit([purgeFinished(tenant, id)]);
  return removed;
};

/**
 * What a deleted conversation leaves behind, removed for good: the files its messages held (each record with its
 * event; the objects follow those events), then every item left in its partition (messages, notes, its email
 * thread). Safe to run again and beside another run: what is gone already is not counted.
 */
export const deleteConversationContents = async (
  unit: Unit,
  tenant: Tenant,
  id: string,
  now: Date,
): Promise<Omit<Purged, 'conversations'>> => {
  const files = await deleteConversationFiles(unit, tenant, id, now);
  const messages = await deletePartitionRest(unit, tenant, id);
  return { messages, files };
};
