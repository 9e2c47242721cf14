import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import type { Tenant } from '../domain/auth/tenant';
import { closedPartition, storedOf, type Stored } from './conversations';
import { storedKey } from './codec';
import { conversationKey } from './entity-keys';
import { conversationPurge } from './registry/inbox';
import { queryPage } from './query';
import { createItem, deleteItem, type Write } from './transact';
import type { Unit } from './unit';

/** A closed conversation's entry in its tenant's closed index: the conversation itself, or the tombstone of an unfinished purge. */
export interface ClosedEntry {
  conversationId: string;
  closedAt: string;
  purging: boolean;
}

const PURGE_TYPE = 'CONV_PURGE';
const tombstoneKey = (tenant: Tenant, id: string) => conversationPurge.key({ tenant, id });

/** A conversation's closed index entry has the tombstone's shape (registry/inbox.ts). */
const entryOf = (item: Record<string, unknown>): ClosedEntry => {
  const { closedAt, id } = conversationPurge.read('gsi2sk', item.gsi2sk);
  return { conversationId: id, closedAt, purging: item.type === PURGE_TYPE };
};

/** Up to `limit` entries of the tenant's closed index that closed before `cutoff` (an ISO time), oldest first. */
export const closedBefore = async (tenant: Tenant, cutoff: string, limit: number): Promise<ClosedEntry[]> =>
  (await queryPage({ index: 'gsi2', pk: closedPartition(tenant), skBelow: cutoff }, { limit })).items.map(entryOf);

/** The conversation as stored now, with the closing time its closed index entry holds (none when it is not closed). */
export const getClosedConversation = async (tenant: Tenant, id: string): Promise<{ stored: Stored; closedAt?: string } | undefined> => {
  const { Item } = await dynamo().send(
    new GetCommand({ TableName: config().TABLE_NAME, Key: conversationKey(tenant, id), ConsistentRead: true }),
  );
  if (!Item) return undefined;
  return {
    stored: storedOf(Item),
    closedAt: typeof Item.gsi2sk === 'string' ? entryOf(Item).closedAt : undefined,
  };
};

/** The tombstone a purge leaves in the closed index, in the transaction that deletes the conversation. */
export const purgeTombstone = (tenant: Tenant, id: string, closedAt: string): Write =>
  createItem({
    ...tombstoneKey(tenant, id),
    type: PURGE_TYPE,
    conversationId: id,
    ...conversationPurge.index('gsi2', { tenant, closedAt, id }),
  });

/** Removes the tombstone: the purge is finished. */
export const purgeFinished = (tenant: Tenant, id: string): Write => deleteItem(tombstoneKey(tenant, id));

/** A page of the partition, deleted in one transaction (at most 100 items; the tombstone may be among those read). */
const PAGE = 99;

/**
 * Deletes every item left in the conversation's partition but its tombstone (its messages, and whatever else a
 * conversation keeps there), a page at a time, one transaction of deletes each (the function's grant has no
 * BatchWriteItem); answers how many of them were messages. Deleting what is already gone is harmless, so a
 * rerun after a crash finishes the job.
 */
export const deletePartitionRest = async (unit: Unit, tenant: Tenant, id: string): Promise<number> => {
  const { pk, sk: tombstone } = tombstoneKey(tenant, id);
  let messages = 0;
  for (;;) {
    const { items } = await queryPage({ pk, consistent: true }, { limit: PAGE });
    const rest = items.filter((i) => i.sk !== tombstone);
    if (rest.length === 0) return messages;
    messages += rest.filter((i) => i.type === 'MESSAGE').length;
    await unit.commit(rest.map((item) => deleteItem(storedKey(item))));
  }
};
