/**
 * An entity's membership in one of its area's named lists (one list per filter the API offers), at a
 * place in the list's order. Lists are partitions of small membership items with an exact counter each.
 */
export interface Membership {
  list: string;
  order: Place;
}

/** A place in a list's order: a time (ISO 8601), the entity's id breaking ties. The data layer renders it as the sort key. */
interface Place {
  at: string;
  id: string;
}

/** The assignee filter value for records with no assignee. */
export const UNASSIGNED = 'none';

const key = (m: Membership) => `${m.list}\u0000${m.order.at}\u0000${m.order.id}`;

/**
 * Memberships to remove and to add when an entity changes, and the net change of each list's count
 * (a membership that only moves within its list leaves the count alone).
 */
export const membershipMoves = (before: readonly Membership[], after: readonly Membership[]) => {
  const was = new Set(before.map(key));
  const is = new Set(after.map(key));
  const leave = before.filter((m) => !is.has(key(m)));
  const join = after.filter((m) => !was.has(key(m)));
  const counts = new Map<string, number>();
  for (const m of leave) counts.set(m.list, (counts.get(m.list) ?? 0) - 1);
  for (const m of join) counts.set(m.list, (counts.get(m.list) ?? 0) + 1);
  return { leave, join, counts: [...counts].filter(([, delta]) => delta !== 0) };
};

/** Memberships of `lists` at a time `at`: each list ordered by it, then by id. */
export const placedAt = (lists: readonly string[], at: string, id: string): Membership[] =>
  lists.map((list) => ({ list, order: { at, id } }));

/** Memberships of `lists` ordered by creation. */
export const byCreation = (lists: readonly string[], e: { _id: string; createdAt: string }): Membership[] =>
  placedAt(lists, e.createdAt, e._id);

/**
 * A status list (`status:<s>`, or an owner's `<owner>:status:<s>`) shares one counter item with the owner's
 * other status lists, one total per status: a status change bumps one item, not two.
 */
export const statusTotal = (list: string): { counter: string; total: string } | undefined => {
  const m = /^((?:[^:]+:[^:]+:)?status):([^:]+)$/.exec(list);
  return m ? { counter: m[1]!, total: m[2]! } : undefined;
};
