import type { Tenant } from '../domain/auth/tenant';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import { collect, queryAll } from './query';
import { conditionCheck, updateItem, type Write } from './transact';
import { counter, sequence } from './registry/workspace';

/**
 * Exact counts, bumped in the same transaction as the writes they count. A counter is one item, or
 * `shards` items (`<sk>#<shard>`) where concurrent writers would keep colliding on one: a bump goes to a
 * random shard and a read sums them. One item can keep several totals, one attribute each (default `n`).
 */
export interface Counter {
  pk: string;
  sk: string;
  shards?: number;
}

const TOTAL = 'n';

const shardKey = (c: Counter) => ({ pk: c.pk, sk: c.shards ? `${c.sk}#${Math.floor(Math.random() * c.shards)}` : c.sk });

/** Adds `deltas` to the counter's totals; with `below`, the write fails once the (single) total has reached it. */
export const bump = (c: Counter, deltas: Record<string, number>, limit: { below?: number } = {}): Write => {
  const entries = Object.entries(deltas);
  return updateItem(shardKey(c), `ADD ${entries.map((_, i) => `#c${i} :c${i}`).join(', ')}`, {
    names: Object.fromEntries(entries.map(([total], i) => [`#c${i}`, total])),
    values: {
      ...Object.fromEntries(entries.map(([, delta], i) => [`:c${i}`, delta])),
      ...(limit.below !== undefined ? { ':below': limit.below } : {}),
    },
    condition: limit.below !== undefined ? 'attribute_not_exists(#c0) OR #c0 < :below' : undefined,
  });
};

/** One total of a counter's item as read (0 when it holds none). */
export const totalIn = (item: Record<string, unknown> | undefined, total: string): number => {
  const value = item?.[total];
  return typeof value === 'number' ? value : 0;
};

/** One total of a counter, read consistently (all shards of a sharded one). */
export const readCount = async (c: Counter, total = TOTAL): Promise<number> => {
  if (c.shards) {
    const shards = await collect(queryAll({ pk: c.pk, skPrefix: `${c.sk}#`, consistent: true }));
    return shards.reduce((sum, item) => sum + totalIn(item, total), 0);
  }
  const { Item } = await dynamo().send(
    new GetCommand({ TableName: config().TABLE_NAME, Key: { pk: c.pk, sk: c.sk }, ConsistentRead: true }),
  );
  return totalIn(Item, total);
};

/** The next number of the tenant's sequence `name`, bumped on its own (a failed use leaves a gap, never a duplicate). */
export const nextInSequence = async (tenant: Tenant, name: string): Promise<number> => {
  const { Attributes } = await dynamo().send(
    new UpdateCommand({
      TableName: config().TABLE_NAME,
      Key: sequence.key({ tenant, name }),
      UpdateExpression: 'ADD #n :one',
      ExpressionAttributeNames: { '#n': TOTAL },
      ExpressionAttributeValues: { ':one': 1 },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return sequence.parse(Attributes ?? {}).n;
};

/** A workspace's named count (`customers`, `tags`, `conversations:<list>`, `tagged:<tag>:<type>`). */
export const workspaceCounter = (tenant: Tenant, name: string): Counter => counter.key({ tenant, name });

export const bumpCounter = (tenant: Tenant, name: string, delta: number): Write => bump(workspaceCounter(tenant, name), { [TOTAL]: delta });

/** A transaction guard: the workspace's named count is zero (or was never counted). */
export const counterIsZero = (tenant: Tenant, name: string, onFail: () => Error): Write => {
  const { pk, sk } = workspaceCounter(tenant, name);
  return conditionCheck(
    { pk, sk },
    { condition: 'attribute_not_exists(#n) OR #n = :zero', names: { '#n': TOTAL }, values: { ':zero': 0 }, onFail },
  );
};

export const readCounter = (tenant: Tenant, name: string): Promise<number> => readCount(workspaceCounter(tenant, name));
