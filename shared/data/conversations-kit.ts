import { BatchGetCommand, type BatchGetCommandOutput } from '@aws-sdk/lib-dynamodb';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import { bumpCounter } from './counters';
import { tagLinkKey } from './entity-keys';
import { transact, updateItem, type TxItem } from './transact';

/**
 * Helpers the inbox and contacts repositories share: optimistic versioning of entity items, retrying a
 * read-modify-write when another writer got there first, and ordered batch reads.
 */
export class VersionConflict extends Error {
  constructor() {
    super('The item changed while it was being updated');
  }
}

const isTransactionConflict = (error: unknown) =>
  error instanceof TransactionCanceledException && (error.CancellationReasons ?? []).some((r) => r.Code === 'TransactionConflict');

/** Re-runs a read-modify-write whose version check lost a race, or whose transaction collided with another. */
export const retryOnConflict = async <T>(attempt: () => Promise<T>, attempts = 8): Promise<T> => {
  for (let i = 1; ; i++) {
    try {
      return await attempt();
    } catch (error) {
      if (i >= attempts || !(error instanceof VersionConflict || isTransactionConflict(error))) throw error;
      await new Promise((r) => setTimeout(r, Math.random() * 20 * i));
    }
  }
};

/** A transaction item and the error to raise when its condition fails (a lost version race by default). */
export interface Write {
  item: TxItem;
  onFail?: () => Error;
}

export const write = (item: TxItem, onFail?: () => Error): Write => ({ item, onFail });

export const transactWrites = (writes: Write[]): Promise<void> =>
  transact(
    writes.map((w) => w.item),
    (i) => writes[i]?.onFail?.() ?? new VersionConflict(),
  );

/**
 * Sets the fields that differ between `before` and `after` and bumps `version`, on condition that nobody
 * else bumped it since it was read. Fields in `skip` (e.g. tag ids, which other areas ADD and DELETE) are
 * never overwritten. `extra` adds SET assignments and REMOVEs of index attributes.
 */
export const versionedUpdate = (
  key: { pk: string; sk: string },
  version: number,
  before: object,
  after: object,
  opts: { skip?: readonly string[]; set?: Record<string, unknown>; remove?: readonly string[] } = {},
): TxItem => {
  const b = before as Record<string, unknown>;
  const a = after as Record<string, unknown>;
  const changed = Object.keys(a).filter((k) => !opts.skip?.includes(k) && JSON.stringify(a[k]) !== JSON.stringify(b[k]));
  const sets = { ...Object.fromEntries(changed.map((k) => [k, a[k]])), ...opts.set };
  const names: Record<string, string> = { '#version': 'version' };
  const values: Record<string, unknown> = { ':version': version, ':one': 1 };
  const assignments = Object.entries(sets).map(([k, v], i) => {
    names[`#s${i}`] = k;
    values[`:s${i}`] = v;
    return `#s${i} = :s${i}`;
  });
  const removals = (opts.remove ?? []).map((k, i) => {
    names[`#r${i}`] = k;
    return `#r${i}`;
  });
  const expression = [`SET ${[...assignments, '#version = #version + :one'].join(', ')}`, removals.length ? `REMOVE ${removals.join(', ')}` : '']
    .filter(Boolean)
    .join(' ');
  return updateItem(key, expression, { names, values, condition: '#version = :version' });
};

/** Items for `keys` in the order of `keys` (missing ones left out), read consistently in chunks of 100. */
export const batchGet = async (keys: { pk: string; sk: string }[]): Promise<Record<string, unknown>[]> => {
  const table = config().TABLE_NAME;
  const found = new Map<string, Record<string, unknown>>();
  const ordered: Record<string, unknown>[] = [];
  for (let i = 0; i < keys.length; i += 100) {
    let request: Record<string, unknown>[] | undefined = keys.slice(i, i + 100);
    while (request && request.length > 0) {
      const res: BatchGetCommandOutput = await dynamo().send(
        new BatchGetCommand({ RequestItems: { [table]: { Keys: request, ConsistentRead: true } } }),
      );
      for (const item of res.Responses?.[table] ?? []) found.set(`${item.pk}|${item.sk}`, item);
      request = res.UnprocessedKeys?.[table]?.Keys;
    }
  }
  for (const k of keys) {
    const item = found.get(`${k.pk}|${k.sk}`);
    if (item) ordered.push(item);
  }
  return ordered;
};

/** Tag ids arrive as a DynamoDB String Set (or not at all); the API shows a sorted array. */
export const tagIdsOf = (value: unknown): string[] => (value instanceof Set || Array.isArray(value) ? [...value].map(String).sort() : []);

/** Puts (+1) or deletes (-1) an entity's tag link items, without touching the per-tag counters. */
export const tagLinks = (ws: string, type: 'customer' | 'conversation', id: string, tagIds: string[], delta: 1 | -1, now: Date): Write[] =>
  tagIds.map((tagId) => {
    const link = tagLinkKey(ws, tagId, type, id);
    return write(
      delta > 0
        ? { Put: { TableName: config().TABLE_NAME, Item: { ...link, type: 'TAG_LINK', tagId, entityType: type, entityId: id, createdAt: now.toISOString() } } }
        : { Delete: { TableName: config().TABLE_NAME, Key: link } },
    );
  });

/** The tags area's per-tag counters of tagged entities (`tagged:<tagId>:<type>`). */
export const tagCounters = (ws: string, type: 'customer' | 'conversation', tagIds: string[], delta: 1 | -1): Write[] =>
  tagIds.map((tagId) => write(bumpCounter(ws, `tagged:${tagId}:${type}`, delta)));

/** Adds (+1) or removes (-1) an entity's tag links, keeping the per-tag counters exact. */
export const tagLinkWrites = (ws: string, type: 'customer' | 'conversation', id: string, tagIds: string[], delta: 1 | -1, now: Date): Write[] => [
  ...tagLinks(ws, type, id, tagIds, delta, now),
  ...tagCounters(ws, type, tagIds, delta),
];
