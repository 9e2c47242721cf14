import { config } from '../config';
import { bumpCounter } from './counters';
import { tagLinkKey } from './entity-keys';
import { VersionConflict } from './retry';
import { transact, updateItem, type TxItem } from './transact';

/**
 * Helpers the inbox, contacts and tags repositories share: optimistic versioning of entity items and
 * the tag links and counters that follow an entity's tags.
 */

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
