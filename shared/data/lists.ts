import { Refused } from '../domain/refusal';
import type { Tenant } from '../domain/auth/tenant';
import type { Membership } from '../domain/lists';
import { membershipMoves } from '../domain/lists';
import { batchGet, batchGetEach } from './batch-get';
import { bump, counterIsZero, totalIn, workspaceCounter } from './counters';
import { countItems, mergedRows, queryPage, type PageRequest, type PageResult, type Partition } from './query';
import type { IndexName } from './table';
import { createItem, deleteItem, type Write } from './transact';
import { K } from './registry/registry';
import { listMembership } from './registry/crm';
import * as z from 'zod';

/**
 * Named lists of an area's entities (CRM leads, tasks, activities, pipelines): a list is the partition
 * `<tenant>#<KIND>LIST#<list>` of membership items sorted by their order, with an exact total written in the
 * same transaction as the entity (its own counter `<kind>s:<list>` unless the area counts it otherwise: ListCounting).
 */
export type ListKind = 'pipeline' | 'lead' | 'task' | 'activity' | 'member' | 'booking';

const LIST_PREFIX = {
  pipeline: K.PIPELINELIST,
  lead: K.LEADLIST,
  task: K.TASKLIST,
  activity: K.ACTIVITYLIST,
  member: K.MEMBERLIST,
  booking: K.BOOKINGLIST,
} as const satisfies Record<ListKind, string>;

export const listPk = (tenant: Tenant, kind: ListKind, list: string) =>
  listMembership.build('pk', { tenant, listPrefix: LIST_PREFIX[kind], list });
/** The id of the entity a membership item names. */
export const memberId = (item: Record<string, unknown>): string => listMembership.parse(item).entityId;
const membershipKey = (tenant: Tenant, kind: ListKind, { list, order }: Membership) =>
  listMembership.key({ tenant, listPrefix: LIST_PREFIX[kind], list, at: order.at, id: order.id });
const memberItem = (tenant: Tenant, kind: ListKind, id: string, m: Membership) => ({
  ...membershipKey(tenant, kind, m),
  type: 'LIST_MEMBER',
  entityId: id,
});
export const listCounter = (kind: ListKind, list: string) => `${kind}s:${list}`;

/**
 * How an area counts its lists. `uncounted`: lists that keep no counter (their total is the sum of their parts',
 * is kept elsewhere, or is counted on read). `shared`: lists whose total is one attribute (`total`) of a counter
 * item that several of them share (`counter`), such as one per status of an owner: a change that moves an entity
 * between them bumps that item once. Every other list keeps its own counter, `<kind>s:<list>` (attribute `n`).
 */
export interface ListCounting {
  uncounted?: (list: string) => boolean;
  shared?: (list: string) => { counter: string; total: string } | undefined;
}

const TOTAL = 'n';

/** Where a list's total is kept: its own counter, or its attribute of a shared one. */
const totalOf = (kind: ListKind, list: string, shared: ListCounting['shared']) => {
  const at = shared?.(list);
  return at ? { counter: listCounter(kind, at.counter), total: at.total } : { counter: listCounter(kind, list), total: TOTAL };
};

/** The membership items and counters that follow an entity from `before` to `after` (either empty for a create or delete). */
export const membershipWrites = (
  tenant: Tenant,
  kind: ListKind,
  id: string,
  before: readonly Membership[],
  after: readonly Membership[],
  { uncounted = () => false, shared }: ListCounting = {},
): Write[] => {
  const { leave, join, counts } = membershipMoves(before, after);
  const bumps = new Map<string, Record<string, number>>();
  for (const [list, delta] of counts.filter(([l]) => !uncounted(l))) {
    const { counter, total } = totalOf(kind, list, shared);
    bumps.set(counter, { ...bumps.get(counter), [total]: delta });
  }
  return [
    ...leave.map((m) => deleteItem(membershipKey(tenant, kind, m))),
    ...join.map((m) => createItem(memberItem(tenant, kind, id, m))),
    ...[...bumps].map(([counter, deltas]) => bump(workspaceCounter(tenant, counter), deltas)),
  ];
};

/**
 * A list's exact total: its counter, or for a list that is the union of `parts` (disjoint lists), the sum of theirs,
 * read in one request. A list whose total moved to a shared counter still adds its own (the counts kept before).
 */
const listTotal = async (tenant: Tenant, kind: ListKind, list: string, parts: string[] | undefined, shared: ListCounting['shared']) => {
  const totals = (parts ?? [list]).flatMap((l) => {
    const at = totalOf(kind, l, shared);
    return at.total === TOTAL ? [at] : [at, { counter: listCounter(kind, l), total: TOTAL }];
  });
  const counters = [...new Set(totals.map((t) => t.counter))];
  const read = await batchGetEach(counters.map((c) => workspaceCounter(tenant, c)));
  const items = new Map(counters.map((c, i) => [c, read[i]]));
  return totals.reduce((sum, t) => sum + totalIn(items.get(t.counter), t.total), 0);
};

/** A transaction guard: the list has no members. */
export const listIsEmpty = (tenant: Tenant, kind: ListKind, list: string, onFail: () => Error): Write =>
  counterIsZero(tenant, listCounter(kind, list), onFail);

/** Membership items as plain items, for bulk loads (benchmarks): what `membershipWrites` puts for a new entity. */
export const membershipItems = (tenant: Tenant, kind: ListKind, id: string, memberships: readonly Membership[]) =>
  memberships.map((m) => memberItem(tenant, kind, id, m));

export interface ListRead {
  ids: string[];
  total: number;
  nextCursor?: string;
}

export interface ListReadOptions {
  newestFirst?: boolean;
  before?: string;
  from?: string;
  upTo?: string;
  /** The disjoint lists whose counters sum to this one's total. */
  parts?: string[];
  /** The lists whose totals are kept on shared counters (ListCounting). */
  shared?: ListCounting['shared'];
  /** A list that keeps no counter (`uncounted` on write): its members are counted when it is read. */
  countOnRead?: boolean;
  /** The total, where an item of the area's own keeps it (a stage's lead count). */
  total?: () => Promise<number>;
}

const partitionOf = (tenant: Tenant, kind: ListKind, list: string, opts: ListReadOptions) => {
  const range = opts.from !== undefined ? { skBetween: [opts.from, opts.upTo ?? '\uffff'] as const } : { skUpTo: opts.upTo };
  return { pk: listPk(tenant, kind, list), newestFirst: opts.newestFirst, skBelow: opts.before, ...range };
};

/** A list's members counted now, key-only and consistently: O(members). */
const countList = (tenant: Tenant, kind: ListKind, list: string): Promise<number> =>
  countItems({ pk: listPk(tenant, kind, list), consistent: true });

/**
 * One page of a list: O(limit) with a cursor, and its exact total from the list's counter in O(1). With
 * `before`, only members ordered before it (e.g. due before now), and with `from`/`upTo`, only those ordered
 * within that range, counted key-only: such a total costs O(matches), as does a list counted on read.
 */
export const readList = async (
  tenant: Tenant,
  kind: ListKind,
  list: string,
  page: PageRequest,
  opts: ListReadOptions = {},
): Promise<ListRead> => {
  const partition = partitionOf(tenant, kind, list, opts);
  const ranged = opts.before !== undefined || opts.from !== undefined || opts.upTo !== undefined;
  const total = (): Promise<number> => (ranged ? countItems(partition) : readTotal(tenant, kind, list, opts));
  const [result, count] = await Promise.all([queryPage(partition, page), total()]);
  return { ...idsOf(result), total: count };
};

/** A whole list's exact total, read as `opts` says (see readList). */
export const readTotal = (tenant: Tenant, kind: ListKind, list: string, opts: ListReadOptions): Promise<number> => {
  if (opts.countOnRead) return countList(tenant, kind, list);
  return opts.total ? opts.total() : listTotal(tenant, kind, list, opts.parts, opts.shared);
};

const idsOf = (result: PageResult) => ({ ids: result.items.map(memberId), nextCursor: result.nextCursor });

/** The entities of a page of ids, in that order, read with `fromItem`. */
export const readItems = async <T>(keys: { pk: string; sk: string }[], fromItem: (item: Record<string, unknown>) => T): Promise<T[]> =>
  (await batchGet(keys)).map(fromItem);

/**
 * One part of a list read as a merge: a stored list's partition (membership items naming their entity), or an
 * index partition of the entities themselves whose sort key is the same order (an entity in the index is its
 * own member). Every part is ordered by `<time>#<id>`.
 */
export type ListPart = { list: string } | { index: IndexName; pk: string };

const partitionOfPart = (tenant: Tenant, kind: ListKind, part: ListPart): Partition =>
  'list' in part ? { pk: listPk(tenant, kind, part.list) } : { index: part.index, pk: part.pk };
/** A member's order and id: a membership item's sort key and entity, or an index entry's sort key and the item's own id. */
const orderOf = (part: ListPart, item: Record<string, unknown>) => z.string().parse('list' in part ? item.sk : item[`${part.index}sk`]);
const idOfMember = (part: ListPart, item: Record<string, unknown>) => ('list' in part ? memberId(item) : z.string().parse(item._id));

/**
 * A list read as the merge of its parts pages by the sort key it stopped at (`<time>#<id>`), in a stored
 * list's cursor shape (its partition and that key), so a cursor issued before the list was merged still resumes.
 */
const ORDER = /^\d{4}-\d{2}-\d{2}T[\d:.]+Z#[0-9a-f]{24}$/;

const encodeMergedCursor = (pk: string, sk: string) => Buffer.from(JSON.stringify({ pk, sk })).toString('base64url');

/** The sort key a merged list's cursor stopped at; a cursor of another list, or not one at all, is refused. */
const decodeMergedCursor = (cursor: string, pk: string): string => {
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    key = undefined;
  }
  const { pk: from, sk, ...rest } = (key && typeof key === 'object' ? key : {}) as Record<string, unknown>;
  if (from !== pk || typeof sk !== 'string' || !ORDER.test(sk) || Object.keys(rest).length) {
    throw new Refused('invalid_cursor', 'Invalid or expired cursor');
  }
  return sk;
};

/** A source of a merged list: a partition read newest first, and each of its items' member and place (`<time>#<id>`). */
interface MemberSource {
  partition: Partition;
  member: (item: Record<string, unknown>) => { order: string; id: string };
}

/**
 * One page of the list whose stored partition is `pk`, read as the merge of `sources` (disjoint: an entity is in
 * one of them at a time), newest first; a cursor is the order the page stopped at, in the stored list's cursor shape,
 * and each source resumes below it. Index sources are eventually consistent, as every index read is: an entity
 * written a moment ago may show a moment later.
 */
export const mergedMemberPage = async (
  pk: string,
  sources: readonly MemberSource[],
  page: PageRequest,
): Promise<{ ids: string[]; nextCursor?: string }> => {
  const below = page.cursor ? decodeMergedCursor(page.cursor, pk) : undefined;
  const read = sources.map((source) => async (wanted: number) => {
    const result = await queryPage({ ...source.partition, newestFirst: true, skBelow: below }, { limit: wanted });
    return { more: !!result.nextCursor, rows: result.items.map(source.member) };
  });
  const { rows, more } = await mergedRows(page, !!below, read, (a, b) => (b.order < a.order ? -1 : 1));
  return { ids: rows.map((m) => m.id), nextCursor: more && rows.length ? encodeMergedCursor(pk, rows.at(-1)!.order) : undefined };
};

/** One page of list `list` read as the merge of `parts` (see mergedMemberPage). */
export const mergedListPage = (tenant: Tenant, kind: ListKind, list: string, parts: readonly ListPart[], page: PageRequest) =>
  mergedMemberPage(
    listPk(tenant, kind, list),
    parts.map((part) => ({
      partition: partitionOfPart(tenant, kind, part),
      member: (item: Record<string, unknown>) => ({ order: orderOf(part, item), id: idOfMember(part, item) }),
    })),
    page,
  );

/** How many members the parts of a merged list hold now, counted key-only (a stored list's consistently; an index's as it stands). */
export const countParts = async (tenant: Tenant, kind: ListKind, parts: readonly ListPart[]): Promise<number> =>
  (await Promise.all(parts.map((p) => countItems({ ...partitionOfPart(tenant, kind, p), consistent: 'list' in p })))).reduce(
    (a, b) => a + b,
    0,
  );
