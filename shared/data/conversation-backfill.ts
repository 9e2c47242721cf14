import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import type { Tenant } from '../domain/auth/tenant';
import type { Stored } from './conversations';
import { closedIndex, listPartition, memberOf } from './conversations';
import { conversationKey } from './entity-keys';
import { queryPage } from './query';
import { closedIndexBackfill } from './registry/inbox';
import { putItem, updateItem } from './transact';
import type { Unit } from './unit';
import { isConditionFailure } from './retry';

/**
 * The closed index's backfill (keys: registry/inbox.ts): conversations closed before the closed index existed
 * carry no entry in it, so the retention sweep would never see them. A tenant's closed status list holds every
 * closed conversation; the backfill walks it once, by cursor, indexing those without an entry, and records its
 * cursor after each page and `done` at the end (from then on, the writes that close a conversation index it).
 */
const stateKey = (tenant: Tenant) => closedIndexBackfill.key({ tenant });

export interface BackfillState {
  done: boolean;
  /** Where the walk of the closed status list stands (none before its first page). */
  cursor?: string;
}

export const backfillState = async (tenant: Tenant): Promise<BackfillState> => {
  const { Item } = await dynamo().send(new GetCommand({ TableName: config().TABLE_NAME, Key: stateKey(tenant), ConsistentRead: true }));
  if (!Item) return { done: false };
  const { done, cursor } = closedIndexBackfill.parse(Item);
  return { done, ...(cursor === undefined ? {} : { cursor }) };
};

export const saveBackfillState = async (unit: Unit, tenant: Tenant, state: BackfillState): Promise<void> => {
  await unit.writeAlone(putItem({ ...stateKey(tenant), type: 'CLOSED_BACKFILL', ...state }));
};

/** A page of the ids in the tenant's closed status list, oldest first, and the cursor past it. */
export const closedListPage = async (tenant: Tenant, limit: number, cursor?: string) => {
  const page = await queryPage({ pk: listPartition(tenant, 'status:closed') }, { limit, cursor });
  return { ids: page.items.map(memberOf), nextCursor: page.nextCursor };
};

/**
 * Enters a closed conversation without an entry into the closed index, at `closedAt`, on the condition that it
 * is still the version read, closed and unindexed: one reopened or indexed meanwhile is left as it is (false).
 * The version does not move (nothing the API answers changes), so a writer that read it before still writes.
 */
export const indexClosed = async (unit: Unit, tenant: Tenant, { conversation, version }: Stored, closedAt: string): Promise<boolean> => {
  const { gsi2pk, gsi2sk } = closedIndex(tenant, closedAt, conversation._id);
  try {
    await unit.writeAlone(
      updateItem(conversationKey(tenant, conversation._id), 'SET gsi2pk = :pk, gsi2sk = :sk', {
        condition: 'version = :version AND #status = :closed AND attribute_not_exists(gsi2pk)',
        names: { '#status': 'status' },
        values: {
          ':pk': gsi2pk,
          ':sk': gsi2sk,
          ':version': version,
          ':closed': 'closed',
        },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
};
