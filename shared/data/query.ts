import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import { Refused } from '../domain/refusal';
import { tableSchema, type IndexName } from './table';

export interface Partition {
  /** Query the base table when absent. */
  index?: IndexName;
  /** The partition key value, e.g. `<tenant>#CONVLIST#<list>`. */
  pk: string;
  /** Restrict to sort keys starting with this. */
  skPrefix?: string;
  /** Restrict to sort keys before this one (timer indexes: everything due before a time). */
  skBelow?: string;
  /** Restrict to sort keys up to and including this one. */
  skUpTo?: string;
  /** Restrict to sort keys in this inclusive range (date ranges, change logs past a sequence number). */
  skBetween?: readonly [string, string];
  newestFirst?: boolean;
  /** Strongly consistent (base table only). */
  consistent?: boolean;
  /** Only items matching this FilterExpression: a Query still reads (and bills) every item it passes over. */
  filter?: { expression: string; names: Record<string, string>; values: Record<string, unknown> };
}

export interface PageRequest {
  limit: number;
  page?: number;
  cursor?: string;
}

export interface PageResult {
  items: Record<string, unknown>[];
  nextCursor?: string;
}

const keyNames = (index?: IndexName) => {
  const gsi = tableSchema.indexes.find((i) => i.name === index);
  return gsi ? { pk: gsi.partitionKey, sk: gsi.sortKey } : { pk: tableSchema.partitionKey, sk: tableSchema.sortKey };
};

const encode = (key: Record<string, unknown>) => Buffer.from(JSON.stringify(key)).toString('base64url');

/** DynamoDB's key attribute limits (bytes of UTF-8). */
const MAX_PARTITION_KEY_BYTES = 2048;
const MAX_SORT_KEY_BYTES = 1024;

/** A cursor is only honoured for the partition it came from, so it can never reach another tenant's keys. */
const decode = (cursor: string, partition: Partition): Record<string, string> => {
  const invalid = () => new Refused('invalid_cursor', 'Invalid or expired cursor');
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  const names = keyNames(partition.index);
  if (!key || typeof key !== 'object' || Array.isArray(key)) throw invalid();
  const record = key as Record<string, unknown>;
  // Exactly the key attributes DynamoDB needs to resume (table and index keys), each a non-empty string
  // within its key size limit: anything else makes the Query itself fail (a 500), here or on AWS.
  const required = projectionOf(partition);
  const sortKeys = new Set<string>([tableSchema.sortKey, names.sk]);
  const wellTyped =
    Object.keys(record).length === required.length &&
    required.every((k) => {
      const v = record[k];
      return typeof v === 'string' && v !== '' && Buffer.byteLength(v) <= (sortKeys.has(k) ? MAX_SORT_KEY_BYTES : MAX_PARTITION_KEY_BYTES);
    });
  const sk = record[names.sk];
  if (!wellTyped || record[names.pk] !== partition.pk || typeof sk !== 'string' || !sortKeyWithin(sk, partition)) throw invalid();
  return record as Record<string, string>;
};

const sortKeyWithin = (sk: string, { skPrefix, skBelow, skUpTo, skBetween }: Partition) =>
  (skPrefix === undefined || sk.startsWith(skPrefix)) &&
  (skBelow === undefined || sk < skBelow) &&
  (skUpTo === undefined || sk <= skUpTo) &&
  (skBetween === undefined || (sk >= skBetween[0] && sk <= skBetween[1]));

/** The key condition for a partition: one sort-key restriction at most, as DynamoDB allows. */
const sortKeyCondition = ({
  skPrefix,
  skBelow,
  skUpTo,
  skBetween,
}: Partition): { expression: string; values: Record<string, string> } | undefined => {
  if (skPrefix !== undefined) return { expression: 'begins_with(#sk, :sk)', values: { ':sk': skPrefix } };
  if (skBelow !== undefined) return { expression: '#sk < :sk', values: { ':sk': skBelow } };
  if (skUpTo !== undefined) return { expression: '#sk <= :sk', values: { ':sk': skUpTo } };
  if (skBetween !== undefined) return { expression: '#sk BETWEEN :sk AND :sk2', values: { ':sk': skBetween[0], ':sk2': skBetween[1] } };
  return undefined;
};

const baseInput = (partition: Partition): QueryCommandInput => {
  const names = keyNames(partition.index);
  const sk = sortKeyCondition(partition);
  return {
    TableName: config().TABLE_NAME,
    IndexName: partition.index,
    KeyConditionExpression: sk ? `#pk = :pk AND ${sk.expression}` : '#pk = :pk',
    FilterExpression: partition.filter?.expression,
    ExpressionAttributeNames: { '#pk': names.pk, ...(sk ? { '#sk': names.sk } : {}), ...partition.filter?.names },
    ExpressionAttributeValues: { ':pk': partition.pk, ...sk?.values, ...partition.filter?.values },
    ScanIndexForward: !partition.newestFirst,
    ConsistentRead: partition.consistent,
  };
};

const projectionOf = (partition: Partition) => {
  const names = keyNames(partition.index);
  return [...new Set([tableSchema.partitionKey, tableSchema.sortKey, names.pk, names.sk])];
};

const keyOf = (item: Record<string, unknown>, partition: Partition) => Object.fromEntries(projectionOf(partition).map((p) => [p, item[p]]));

/**
 * Walks past `count` items reading keys only: page N costs O(N·limit) key reads; a cursor costs nothing.
 * Returns where the next item starts, or how many were left to skip when the partition ended first.
 */
const skip = async (partition: Partition, count: number): Promise<{ start?: Record<string, unknown>; left: number }> => {
  const projection = projectionOf(partition);
  const input = baseInput(partition);
  let start: Record<string, unknown> | undefined;
  let left = count;
  while (left > 0) {
    const res = await dynamo().send(
      new QueryCommand({
        ...input,
        ExclusiveStartKey: start,
        Limit: Math.min(left, 1000),
        ProjectionExpression: projection.map((_, i) => `#k${i}`).join(', '),
        ExpressionAttributeNames: { ...input.ExpressionAttributeNames, ...Object.fromEntries(projection.map((p, i) => [`#k${i}`, p])) },
      }),
    );
    const items = res.Items ?? [];
    left -= items.length;
    if (left === 0) return { start: keyOf(items.at(-1)!, partition), left };
    if (!res.LastEvaluatedKey) return { left };
    start = res.LastEvaluatedKey;
  }
  return { start, left };
};

/** Paging by number skips at most this many items (at most 10 key-only Queries); a cursor pages deeper at O(limit). */
const MAX_PAGE_DEPTH = 10_000;

const checkDepth = (request: PageRequest) => {
  if ((request.page! - 1) * request.limit > MAX_PAGE_DEPTH) {
    throw new Refused('page_too_deep', `(page − 1) × limit is at most ${MAX_PAGE_DEPTH}; page deeper with cursor`);
  }
};

/** Up to `wanted` items of a partition from `start` on (a filtered Query may return fewer than it reads, so it reads on). */
const readFrom = async (partition: Partition, start: Record<string, unknown> | undefined, wanted: number) => {
  const items: Record<string, unknown>[] = [];
  let from = start;
  do {
    const res = await dynamo().send(
      new QueryCommand({
        ...baseInput(partition),
        ExclusiveStartKey: from,
        Limit: partition.filter ? Math.min(1000, 10 * wanted) : wanted - items.length,
      }),
    );
    items.push(...(res.Items ?? []));
    from = res.LastEvaluatedKey;
  } while (from && items.length < wanted);
  return items.slice(0, wanted);
};

/** One page of a partition, by cursor (O(limit)) or by page number; `nextCursor` only when more items exist. */
/** The cursor that resumes a page of `partition` after `item`. */
export const cursorAfter = (partition: Partition, item: Record<string, unknown>): string => encode(keyOf(item, partition));

export const queryPage = async (partition: Partition, request: PageRequest): Promise<PageResult> => {
  let start: Record<string, unknown> | undefined;
  if (request.cursor) start = decode(request.cursor, partition);
  else if (request.page && request.page > 1) {
    checkDepth(request);
    const skipped = await skip(partition, (request.page - 1) * request.limit);
    if (skipped.left > 0) return { items: [] };
    start = skipped.start;
  }
  const read = await readFrom(partition, start, request.limit + 1);
  const items = read.slice(0, request.limit);
  return { items, nextCursor: read.length > request.limit ? cursorAfter(partition, items.at(-1)!) : undefined };
};

/** `key` (a cursor's key in `from`'s shape) in `to`'s: the same table key, `from`'s index key under `to`'s names. */
const keyIn = (key: Record<string, unknown>, from: Partition, to: Partition) => {
  const [a, b] = [keyNames(from.index), keyNames(to.index)];
  return {
    [tableSchema.partitionKey]: key[tableSchema.partitionKey],
    [tableSchema.sortKey]: key[tableSchema.sortKey],
    [b.pk]: key[a.pk],
    [b.sk]: key[a.sk],
  };
};

/** DynamoDB's order of string sort keys: their UTF-8 bytes. */
const byBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/** One source of a merged page: its first `wanted` rows from where the page resumes, and whether it holds more. */
export type MergeSource<T> = (wanted: number) => Promise<{ rows: T[]; more: boolean }>;

/**
 * One page of several disjoint sources that share one order, merged: the first `limit` of the sources' own first
 * pages (each source already resumed after the cursor, when `resumed`), or page N of them (page N reads N·limit of
 * each). The caller makes its cursor from the page's last row.
 */
export const mergedRows = async <T>(
  request: PageRequest,
  resumed: boolean,
  sources: readonly MergeSource<T>[],
  before: (a: T, b: T) => number,
): Promise<{ rows: T[]; more: boolean }> => {
  if (!resumed && request.page && request.page > 1) checkDepth(request);
  const skipped = resumed ? 0 : ((request.page ?? 1) - 1) * request.limit;
  const wanted = skipped + request.limit;
  const read = await Promise.all(sources.map((source) => source(wanted)));
  const merged = read.flatMap((r) => r.rows).sort(before);
  return { rows: merged.slice(skipped, wanted), more: merged.length > wanted || read.some((r) => r.more) };
};

/**
 * One page of one list kept in several partitions that share its order (the same list's entries in a keys-only
 * index and in the index they replace), each item in one of them, in the first source's order. Its cursor is in the
 * first source's shape, the key of the last item it returned, so a cursor issued while the list was that source
 * alone still resumes, and each source resumes after it. O(sources × limit) with a cursor.
 */
export const unionPage = async (sources: readonly [Partition, ...Partition[]], request: PageRequest): Promise<PageResult> => {
  const [first] = sources;
  const after = request.cursor ? decode(request.cursor, first) : undefined;
  const read = sources.map((source) => async (wanted: number) => {
    const items = await readFrom(source, after && keyIn(after, first, source), wanted + 1);
    const rows = items.slice(0, wanted).map((item) => ({ item, source, order: String(item[keyNames(source.index).sk]) }));
    return { rows, more: items.length > wanted };
  });
  const { rows, more } = await mergedRows(request, !!after, read, (a, b) =>
    first.newestFirst ? byBytes(b.order, a.order) : byBytes(a.order, b.order),
  );
  const last = rows.at(-1);
  return {
    items: rows.map((r) => r.item),
    nextCursor: more && last ? encode(keyIn(keyOf(last.item, last.source), last.source, first)) : undefined,
  };
};

/**
 * One page over several partitions read one after another as if they were one list (e.g. one per status).
 * A cursor names the partition it stops in (`<index>.<key>`), so it resumes there.
 */
export const queryChainPage = async (partitions: readonly Partition[], request: PageRequest): Promise<PageResult> => {
  let first = 0;
  let start: Record<string, unknown> | undefined;
  if (request.cursor) {
    const [index, key] = request.cursor.split('.', 2);
    first = Number(index);
    const partition = partitions[first];
    if (!partition || !/^\d+$/.test(index!) || key === undefined) throw new Refused('invalid_cursor', 'Invalid or expired cursor');
    start = decode(key, partition);
  } else if (request.page && request.page > 1) {
    checkDepth(request);
    let left = (request.page - 1) * request.limit;
    for (; first < partitions.length; first++) {
      const skipped = await skip(partitions[first]!, left);
      left = skipped.left;
      if (left === 0) {
        start = skipped.start;
        break;
      }
    }
    if (left > 0) return { items: [] };
  }
  const read: { item: Record<string, unknown>; from: number }[] = [];
  for (let i = first; i < partitions.length && read.length <= request.limit; i++) {
    const items = await readFrom(partitions[i]!, i === first ? start : undefined, request.limit + 1 - read.length);
    read.push(...items.map((item) => ({ item, from: i })));
  }
  const page = read.slice(0, request.limit);
  const last = page.at(-1);
  return {
    items: page.map((r) => r.item),
    nextCursor: read.length > request.limit && last ? `${last.from}.${encode(keyOf(last.item, partitions[last.from]!))}` : undefined,
  };
};

/** Every item of a partition, page by page: for partitions bounded by design and for background walks. */
export async function* queryAll(partition: Partition): AsyncGenerator<Record<string, unknown>> {
  let start: Record<string, unknown> | undefined;
  do {
    const res = await dynamo().send(new QueryCommand({ ...baseInput(partition), ExclusiveStartKey: start }));
    yield* res.Items ?? [];
    start = res.LastEvaluatedKey;
  } while (start);
}

/** How many items a partition holds, counted key-only page by page: the cost grows with the matches only. */
export const countItems = async (partition: Partition): Promise<number> => {
  let total = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const res = await dynamo().send(new QueryCommand({ ...baseInput(partition), Select: 'COUNT', ExclusiveStartKey: start }));
    total += res.Count ?? 0;
    start = res.LastEvaluatedKey;
  } while (start);
  return total;
};

export const collect = async <T>(items: AsyncIterable<T>): Promise<T[]> => {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
};
