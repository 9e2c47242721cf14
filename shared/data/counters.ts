import type { Tenant } from '../domain/auth/tenant';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import { collect, queryAll } from './query';
import { conditionCheck, type Key, updateItem, type Write } from './transact';
import { counter, sequence } from './registry/workspace';

/**
 * Exact counts, bumped in the same transaction as the writes they count. A counter is one item, or
 * `shards` items where concurrent writers would keep colliding on one: a bump goes to a random shard and a
 * read sums them. One item can keep several totals, one attribute each (default `n`).
 */
export type Counter = Key | ShardedCounter;
interface ShardedCounter {
  shards: number;
  shard: (n: number) => Key;
  pk: string;
  skPrefix: string;
}

/** What `sharded` needs of an entity whose sort key is literal segments then `<shard>` (its `declare`d keys). */
interface ShardedKeys<A> {
  key: (args: A & { shard: string }) => Key;
  build: (attribute: 'pk', args: A) => string;
  prefix: (attribute: 'sk', args: { shard?: string }) => string;
}

/** The counter kept in `shards` items of `keys`, each keyed by `args` and its shard's number. */
export const sharded = <A>(keys: ShardedKeys<NoInfer<A>>, args: A, shards: number): ShardedCounter => ({
  shards,
  shard: (n) => keys.key({ ...args, shard: String(n) }),
  pk: keys.build('pk', args),
  skPrefix: keys.prefix('sk', {}),
});

const TOTAL = 'n';

const shardKey = (c: Counter): Key => ('shards' in c ? c.shard(Math.floor(Math.random() * c.shards)) : c);

/** Every shard of a sharded counter, read consistently. */
export const readShards = (c: ShardedCounter) => collect(queryAll({ pk: c.pk, skPrefix: c.skPrefix, consistent: true }));

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
  if ('shards' in c) return (await readShards(c)).reduce((sum, item) => sum + totalIn(item, total), 0);
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
export const workspaceCounter = (tenant: Tenant, name: string): Key => counter.key({ tenant, name });

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
