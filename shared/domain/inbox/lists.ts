import { ValidationError } from '../errors';
import { STATUSES, type Conversation, type Status } from './conversation';

/**
 * Every conversation is a member of a few named lists, one per filter the API offers. A list is a
 * partition of small membership items sorted by `<createdAt>#<id>`, so each filtered page costs O(limit).
 * Only the lists below are stored; `all` and an assignee's are read as the merge of their status parts
 * (`statusParts`), which share that sort order. Totals are attributes of a few coarse count items (`countsOf`).
 */
export const UNASSIGNED = 'none';

export const listsOf = (c: Pick<Conversation, 'status' | 'assigneeId' | 'channel' | 'customerId'>): string[] => {
  const assignee = c.assigneeId ?? UNASSIGNED;
  return [`status:${c.status}`, `assignee:${assignee}:status:${c.status}`, `channel:${c.channel}`, `customer:${c.customerId}`];
};

/**
 * The lists that are the union of one list per status (a conversation has one status at a time): `all`
 * and an assignee's. Their pages merge those lists and their total is the sum of theirs, so nothing of their own is stored.
 */
export const statusParts = (list: string): string[] | undefined => {
  if (list === 'all') return STATUSES.map((s) => `status:${s}`);
  const assignee = /^assignee:([^:]+)$/.exec(list)?.[1];
  return assignee ? STATUSES.map((s) => `assignee:${assignee}:status:${s}`) : undefined;
};

/**
 * Where a stored list's total is kept: the workspace's one count item (`conversations`) holds a total per
 * status, per channel and per status of the unassigned; each agent's item (`conversations:assignee:<id>`) a
 * total per status. So an unassigned conversation's create or status change bumps one item and an assigned
 * one's two, not one per list; an agent's totals are apart so the workspace's item stays small (under 1 KB
 * whatever the number of agents). A customer's total is the customer's own count of its conversations (undefined here).
 */
export const countOf = (list: string): { counter: string; total: string } | undefined => {
  const byAssignee = /^assignee:([^:]+):status:(\w+)$/.exec(list);
  if (byAssignee && byAssignee[1] !== UNASSIGNED) return { counter: `conversations:assignee:${byAssignee[1]}`, total: byAssignee[2]! };
  if (byAssignee || list.startsWith('status:') || list.startsWith('channel:')) return { counter: 'conversations', total: list };
  return undefined;
};

/** What a change does to the count items: per item, the non-zero deltas of its totals. */
export const countMoves = (leave: readonly string[], join: readonly string[]): Map<string, Record<string, number>> => {
  const moves = new Map<string, Record<string, number>>();
  const add = (list: string, delta: number) => {
    const where = countOf(list);
    if (!where) return;
    const deltas = moves.get(where.counter) ?? {};
    deltas[where.total] = (deltas[where.total] ?? 0) + delta;
    if (deltas[where.total] === 0) delete deltas[where.total];
    if (Object.keys(deltas).length) moves.set(where.counter, deltas);
    else moves.delete(where.counter);
  };
  for (const l of leave) add(l, -1);
  for (const l of join) add(l, 1);
  return moves;
};

export interface ConversationFilters {
  status?: Status;
  /** An agent's member id, or `none` for unassigned conversations. */
  assigneeId?: string;
  channel?: string;
  customerId?: string;
  tagId?: string;
}

export type ListSource = { list: string } | { tagId: string };

/**
 * The one list a filter combination reads. Only `status` + `assigneeId` combine (an agent's open
 * conversations); any other combination has no exact O(1) total, so it is refused.
 */
export const listSource = (f: ConversationFilters): ListSource => {
  const given = (['status', 'assigneeId', 'channel', 'customerId', 'tagId'] as const).filter((k) => f[k] !== undefined);
  const combinable = given.length === 2 && given.includes('status') && given.includes('assigneeId');
  if (given.length > 1 && !combinable) {
    const message = 'Filters cannot be combined, except status with assigneeId';
    throw new ValidationError(given.slice(1).map((path) => ({ path, message })));
  }
  if (combinable) return { list: `assignee:${f.assigneeId}:status:${f.status}` };
  if (f.status) return { list: `status:${f.status}` };
  if (f.assigneeId) return { list: `assignee:${f.assigneeId}` };
  if (f.channel) return { list: `channel:${f.channel}` };
  if (f.customerId) return { list: `customer:${f.customerId}` };
  if (f.tagId) return { tagId: f.tagId };
  return { list: 'all' };
};

/** Lists to leave and lists to join when a conversation changes. */
export const listMoves = (before: Conversation | undefined, after: Conversation | undefined) => {
  const was = new Set(before ? listsOf(before) : []);
  const is = new Set(after ? listsOf(after) : []);
  return { leave: [...was].filter((l) => !is.has(l)), join: [...is].filter((l) => !was.has(l)) };
};
