import type { Tenant } from '../domain/auth/tenant';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import { Refused } from '../domain/refusal';
import type { Conversation } from '../domain/inbox/conversation';
import { countMoves, countOf, listMoves, listsOf, statusParts, UNASSIGNED } from '../domain/inbox/lists';
import { bump, nextInSequence, totalIn, workspaceCounter } from './counters';
import { batchGetEach } from './batch-get';
import { conversationKey, customerKey } from './entity-keys';
import { tagIdsOf, tagLinkWrites, unchangedSinceRead } from './tag-links';
import { versionedUpdate } from './versioned';
import { activeMemberCheck } from './references';
import type { IndexName } from './table';
import { collect, queryAll, queryPage, type Partition } from './query';
import { createItem, deleteItem, updateItem, type Write } from './transact';
import { storedKey } from './codec';
import { conversation as conversationEntity, conversationList, message as messageEntity } from './registry/inbox';

/**
 * Conversations (keys: registry/inbox.ts), with their messages in the same partition. Snoozed ones are in the
 * timer's sparse index of due wake-ups (gsi1), closed ones in their tenant's closed index (gsi2).
 */

/** A list's partition: its membership items' (read newest first), and its index entries' where it is kept in an index. */
export const listPartition = (tenant: Tenant, list: string) => conversationList.build('pk', { tenant, list });
const listMembership = (tenant: Tenant, list: string, c: Conversation) =>
  conversationList.key({ tenant, list, createdAt: c.createdAt, id: c._id });

/**
 * The count item a list's total was kept in before totals moved to coarse items (`countOf`): its `n` still
 * holds the members counted until then, so a total is the sum of both and needs no migration.
 */
const legacyCounter = (list: string) => `conversations:${list}`;

/**
 * The lists a conversation is its own entry of, one index each (keys only, so a reply or an edit that keeps the
 * list writes no entry): its status list and its assignee's list with its status. Its customer's list stays a
 * membership item, which is also its channel list's entry (`customerMembership`). A conversation stored before these
 * indexes keeps its membership item in such a list until that list changes (its status or assignee): the change
 * deletes the item and sets the entry.
 */
const LIST_INDEXES = [
  { index: 'gsi3', listOf: (c: Pick<Conversation, 'status'>) => `status:${c.status}` },
  {
    index: 'gsi4',
    listOf: (c: Pick<Conversation, 'status' | 'assigneeId'>) => `assignee:${c.assigneeId ?? UNASSIGNED}:status:${c.status}`,
  },
] as const satisfies readonly { index: IndexName; listOf: (c: Conversation) => string }[];

export type ListIndex = (typeof LIST_INDEXES)[number]['index'];

/** The index entry of `c` in index `index`'s list: same partition key and order as that list's membership items. */
const listEntry = (tenant: Tenant, spec: (typeof LIST_INDEXES)[number], c: Conversation) =>
  conversationEntity.index(spec.index, { tenant, list: spec.listOf(c), createdAt: c.createdAt, id: c._id });

export interface Stored {
  conversation: Conversation;
  version: number;
  /** The list indexes the item has its entry in (all, but for a conversation stored before them and not moved since). */
  indexed: readonly ListIndex[];
  /** Its channel's list is the entry of its customer membership item (else, stored before, a membership item of its own). */
  channelEntry: boolean;
}

/** The conversation as stored, with its version (its tag ids are a String Set, read into the array). */
const parse = (item: Record<string, unknown>) => conversationEntity.parse({ ...item, tagIds: tagIdsOf(item.tagIds) });

/** A stored conversation item as read. */
export const storedOf = (item: Record<string, unknown>): Stored => {
  const { version, channelEntry, ...conversation } = parse(item);
  return {
    conversation,
    version,
    indexed: LIST_INDEXES.filter((spec) => item[`${spec.index}pk`] !== undefined).map((spec) => spec.index),
    channelEntry: channelEntry === true,
  };
};

export const fromItem = (item: Record<string, unknown>): Conversation => {
  const { version: _v, channelEntry: _c, ...conversation } = parse(item);
  return conversation;
};

const snoozeIndex = (tenant: Tenant, c: Conversation) =>
  c.status === 'snoozed' && c.snoozedUntil
    ? conversationEntity.index('gsi1', { snoozedUntil: c.snoozedUntil, tenant, id: c._id })
    : undefined;

const toItem = (tenant: Tenant, c: Conversation) => {
  const { tagIds: _tags, ...fields } = c;
  return {
    ...conversationKey(tenant, c._id),
    type: 'CONVERSATION',
    version: 1,
    ...fields,
    ...snoozeIndex(tenant, c),
    ...Object.assign({}, ...LIST_INDEXES.map((spec) => listEntry(tenant, spec, c))),
    channelEntry: true,
  };
};

export const getConversation = async (tenant: Tenant, id: string): Promise<Stored | undefined> => {
  const { Item } = await dynamo().send(
    new GetCommand({ TableName: config().TABLE_NAME, Key: conversationKey(tenant, id), ConsistentRead: true }),
  );
  return Item ? storedOf(Item) : undefined;
};

/**
 * A list's exact total (but a customer's, which is its customer's count of conversations): the sum over its stored
 * parts (itself, or its status parts) of each part's total in its count item and in its legacy counter, in one BatchGetItem.
 */
export const listTotal = async (tenant: Tenant, list: string): Promise<number> => {
  const reads = (statusParts(list) ?? [list]).flatMap((part) => {
    const where = countOf(part)!;
    return [
      { key: workspaceCounter(tenant, where.counter), total: where.total },
      { key: workspaceCounter(tenant, legacyCounter(part)), total: 'n' },
    ];
  });
  const keys = [...new Map(reads.map((r) => [r.key.sk, r.key])).values()];
  const items = new Map((await batchGetEach(keys)).map((item, i) => [keys[i]!.sk, item]));
  return reads.reduce((sum, r) => sum + totalIn(items.get(r.key.sk), r.total), 0);
};

const customerList = (c: Conversation) => `customer:${c.customerId}`;
const channelList = (c: Conversation) => `channel:${c.channel}`;

/**
 * The conversation's membership item in its customer's list, which is also its entry in its channel's list (gsi3,
 * keys only): one item for the two lists that never move but in a merge. A conversation stored before has its
 * channel's membership item instead (no `channelEntry` on its item) until its customer changes.
 */
const customerMembership = (tenant: Tenant, c: Conversation) => ({
  ...listMembership(tenant, customerList(c), c),
  type: 'CONV_LIST',
  conversationId: c._id,
  ...conversationList.index('gsi3', { tenant, channelList: channelList(c), createdAt: c.createdAt, id: c._id }),
});

/**
 * What a change does to the lists: the conversation's own index entries of the status lists that moved (`set`: their
 * new keys on the item), its customer's membership item when the customer changed (with its channel entry), the
 * membership items a conversation stored before kept in a list that moved, and the totals of the count items, which
 * follow every list.
 */
const listWrites = (tenant: Tenant, before: Stored | undefined, after: Conversation | undefined) => {
  const { leave, join } = listMoves(before?.conversation, after);
  const was = before?.conversation;
  const moved = LIST_INDEXES.filter((spec) => !was || !after || spec.listOf(was) !== spec.listOf(after));
  const customerMoved = !was || !after || customerList(was) !== customerList(after);
  const left = before
    ? [
        ...moved.filter((spec) => !before.indexed.includes(spec.index)).map((spec) => spec.listOf(before.conversation)),
        ...(customerMoved ? [customerList(before.conversation), ...(before.channelEntry ? [] : [channelList(before.conversation)])] : []),
      ]
    : [];
  const set = was && after ? Object.assign({}, ...moved.map((spec) => listEntry(tenant, spec, after))) : {};
  return {
    set: { ...set, ...(before && !before.channelEntry && after && customerMoved ? { channelEntry: true } : {}) },
    writes: [
      ...left.map((l) => deleteItem(listMembership(tenant, l, was!))),
      ...(after && customerMoved ? [createItem(customerMembership(tenant, after))] : []),
      ...[...countMoves(leave, join)].map(([counter, deltas]) => bump(workspaceCounter(tenant, counter), deltas)),
    ] as Write[],
  };
};

/** Closed conversations by closing time, per tenant: the retention sweep's index (a purge's tombstone stays in it). */
export const closedPartition = (tenant: Tenant) => conversationEntity.build('gsi2pk', { tenant });
export const closedIndex = (tenant: Tenant, closedAt: string, id: string) => conversationEntity.index('gsi2', { tenant, closedAt, id });

/**
 * The closed index follows the status: a conversation that closes enters it at its closing time (its
 * `updatedAt`), one that stays closed keeps its entry through later edits, and one that reopens leaves it.
 */
const closedIndexChange = (tenant: Tenant, before: Conversation, after: Conversation) => {
  if (after.status !== 'closed') return { remove: ['gsi2pk', 'gsi2sk'] };
  return before.status === 'closed' ? {} : { set: closedIndex(tenant, after.updatedAt, after._id) };
};

/** The writes that store `after` over the version read: its snooze and closed indexes and lists follow it, and a new assignee is checked. */
export const conversationUpdate = (tenant: Tenant, stored: Stored, after: Conversation): Write[] => {
  const { conversation: before, version } = stored;
  const index = snoozeIndex(tenant, after);
  const closed = closedIndexChange(tenant, before, after);
  const lists = listWrites(tenant, stored, after);
  return [
    versionedUpdate(conversationKey(tenant, before._id), version, before, after, {
      skip: ['tagIds'],
      set: { ...index, ...closed.set, ...lists.set },
      remove: [...(index ? [] : ['gsi1pk', 'gsi1sk']), ...(closed.remove ?? [])],
    }),
    ...(after.assigneeId && after.assigneeId !== before.assigneeId ? [activeMemberCheck(tenant, after.assigneeId)] : []),
    ...lists.writes,
  ];
};

/** The items a newly created conversation consists of, and what it adds to the count items (for bulk loads). */
export const createdItems = (tenant: Tenant, c: Conversation) => ({
  items: [toItem(tenant, c), customerMembership(tenant, c)],
  counts: countMoves([], listsOf(c)),
});

/** The workspace's next display number, from its sequence (a failed create leaves a gap, never a duplicate). */
export const nextConversationNumber = (tenant: Tenant): Promise<number> => nextInSequence(tenant, 'conversation');

/**
 * The update of an existing customer whose first message on a channel opened a conversation: it stamps the
 * customer's last activity, so the same update counts the conversation (`conversationCount` and
 * `lastConversations`, added to what its count's item holds) and that item is not written. Any other new
 * conversation is counted by `customerCounting`.
 */
export const customerOpening = (tenant: Tenant, conversation: Conversation, activityAt: string): Write =>
  updateItem(
    customerKey(tenant, conversation.customerId),
    'SET lastConversations.#ch = :id, lastActivityAt = :t ADD conversationCount :one',
    {
      names: { '#ch': conversation.channel },
      values: { ':id': conversation._id, ':one': 1, ':t': activityAt },
      condition: 'attribute_exists(pk)',
      onFail: () => new Refused('no_such_customer', 'No such customer in this workspace'),
    },
  );

/**
 * The writes that store a new conversation: its item and lists, the check of its assignee and `customer`, the
 * writes that count it on its customer (`customerCounting`, `customerOpening`, or the customer's own creation in the
 * same transaction).
 */
export const conversationCreation = (tenant: Tenant, conversation: Conversation, customer: Write[]): Write[] => [
  ...customer,
  createItem(toItem(tenant, conversation)),
  ...(conversation.assigneeId ? [activeMemberCheck(tenant, conversation.assigneeId)] : []),
  ...listWrites(tenant, undefined, conversation).writes,
];

/**
 * The writes that delete the conversation as read, its list memberships, `uncount` (the writes that uncount it
 * on its customer: `customerCounting`) and its tag links (with their counters), conditional on the version and the number of tags read (a concurrent tagging re-runs it).
 */
export const conversationDeletion = (tenant: Tenant, stored: Stored, now: Date, uncount: Write[]): Write[] => [
  deleteItem(conversationKey(tenant, stored.conversation._id), unchangedSinceRead(stored.version, stored.conversation.tagIds)),
  ...listWrites(tenant, stored, undefined).writes,
  ...uncount,
  ...tagLinkWrites(tenant, 'conversation', stored.conversation._id, stored.conversation.tagIds, -1, now),
];

/** The index a stored list is kept in (status and channel lists in gsi3, an assignee's with a status in gsi4), if it is one. */
export const indexOfList = (list: string): ListIndex | undefined => {
  if (/^(status|channel):[^:]+$/.test(list)) return 'gsi3';
  return /^assignee:[^:]+:status:\w+$/.test(list) ? 'gsi4' : undefined;
};

/**
 * The ids of the conversations in a stored list, up to `limit` (all of them without), oldest first: its membership
 * items, read consistently, and for a list kept in an index also its entries there, as the index stands (eventually
 * consistent: a caller that must see every member checks the list's exact total afterwards).
 */
export const conversationIdsIn = async (tenant: Tenant, list: string, limit?: number): Promise<string[]> => {
  const pk = listPartition(tenant, list);
  const index = indexOfList(list);
  const read = (partition: Partition) =>
    limit === undefined ? collect(queryAll(partition)) : queryPage(partition, { limit }).then((p) => p.items);
  const [items, entries] = await Promise.all([read({ pk, consistent: true }), index ? read({ index, pk }) : []]);
  const ids = [...items.map(memberOf), ...(index ? entries.map((e) => idOfEntry(index, e)) : [])];
  return limit === undefined ? ids : ids.slice(0, limit);
};

/** The conversation a membership item names. */
export const memberOf = (item: Record<string, unknown>): string => conversationList.parse(item).conversationId;

/** The conversation an index entry of a list names, from its sort key (`<createdAt>#<id>`). */
export const idOfEntry = (index: ListIndex, entry: Record<string, unknown>): string =>
  conversationEntity.read(`${index}sk`, entry[`${index}sk`]).id;

/** The keys of a conversation's partition but the conversation's own (its messages, notes and email thread), each marked when a message. */
export const conversationContents = async (
  tenant: Tenant,
  id: string,
): Promise<{ key: { pk: string; sk: string }; message: boolean }[]> => {
  const { pk, sk: own } = conversationKey(tenant, id);
  const messages = messageEntity.prefix('sk', {});
  return (await collect(queryAll({ pk, consistent: true })))
    .map(storedKey)
    .filter((key) => key.sk !== own)
    .map((key) => ({ key, message: key.sk.startsWith(messages) }));
};
