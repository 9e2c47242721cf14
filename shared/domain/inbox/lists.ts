import { ValidationError } from '../errors';
import { STATUSES, type Conversation, type Status } from './conversation';

/**
 * Every conversation is a member of a few named lists, one per filter the API offers. A list is a
 * partition of small membership items sorted by conversation id, with an exact counter beside it, so
 * each filtered page costs O(limit) and its total O(1).
 */
export const UNASSIGNED = 'none';

export const listsOf = (c: Pick<Conversation, 'status' | 'assigneeId' | 'channel' | 'customerId'>): string[] => {
  const assignee = c.assigneeId ?? UNASSIGNED;
  return [
    'all',
    `status:${c.status}`,
    `assignee:${assignee}`,
    `assignee:${assignee}:status:${c.status}`,
    `channel:${c.channel}`,
    `customer:${c.customerId}`,
  ];
};

/**
 * The lists that are the union of one list per status (a conversation has one status at a time): `all`
 * and an assignee's. Their total is the sum of those lists' counters, so they keep no counter of their own.
 */
export const statusParts = (list: string): string[] | undefined => {
  if (list === 'all') return STATUSES.map((s) => `status:${s}`);
  const assignee = /^assignee:([^:]+)$/.exec(list)?.[1];
  return assignee ? STATUSES.map((s) => `assignee:${assignee}:status:${s}`) : undefined;
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
