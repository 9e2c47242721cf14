import type { Tenant } from '../domain/auth/tenant';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import { Refused } from '../domain/refusal';
import type { Conversation } from '../domain/inbox/conversation';
import { countMoves, countOf, listMoves, listsOf, statusParts } from '../domain/inbox/lists';
import { bump, nextInSequence, workspaceCounter } from './counters';
import { batchGetEach } from './batch-get';
import { conversationKey, customerKey } from './entity-keys';
import { tagIdsOf, tagLinkWrites, unchangedSinceRead } from './tag-links';
import { versionedUpdate } from './versioned';
import { activeMemberCheck } from './references';
import { indexSk, tenantPk } from './keys';
import { collect, queryAll, queryPage } from './query';
import { createItem, deleteItem, updateItem, type Write } from './transact';
import { K } from './registry/registry';
import { itemCodec } from './codec';
import { conversation as conversationView } from '../views/inbox';

/**
 * Conversations: pk=<tenant>#CONV#<id> sk=CONVERSATION, with the messages in the same partition.
 * Snoozed ones carry gsi1pk=SNOOZED gsi1sk=<until>#<tenant>#<id>, the timer's sparse index of due wake-ups.
 */
export const SNOOZED_INDEX = K.SNOOZED;

/** Membership of a conversation in list `list`: pk=<tenant>#CONVLIST#<list>, sk=<createdAt>#<id>, read newest first. */
export const listPartition = (tenant: Tenant, list: string) => tenantPk(tenant, K.CONVLIST, list);
const listMembership = (tenant: Tenant, list: string, c: Conversation) => ({
  pk: listPartition(tenant, list),
  sk: `${c.createdAt}#${c._id}`,
});

/**
 * The count item a list's total was kept in before totals moved to coarse items (`countOf`): its `n` still
 * holds the members counted until then, so a total is the sum of both and needs no migration.
 */
const legacyCounter = (list: string) => `conversations:${list}`;

export interface Stored {
  conversation: Conversation;
  version: number;
}

const snoozeIndex = (tenant: Tenant, c: Conversation) =>
  c.status === 'snoozed' && c.snoozedUntil ? { gsi1pk: SNOOZED_INDEX, gsi1sk: indexSk(c.snoozedUntil, tenant, c._id) } : undefined;

const decode = itemCodec(conversationView);
export const fromItem = (item: Record<string, unknown>): Conversation => decode({ ...item, tagIds: tagIdsOf(item.tagIds) });

const toItem = (tenant: Tenant, c: Conversation) => {
  const { tagIds: _tags, ...fields } = c;
  return { ...conversationKey(tenant, c._id), type: 'CONVERSATION', version: 1, ...fields, ...snoozeIndex(tenant, c) };
};

export const getConversation = async (tenant: Tenant, id: string): Promise<Stored | undefined> => {
  const { Item } = await dynamo().send(
    new GetCommand({ TableName: config().TABLE_NAME, Key: conversationKey(tenant, id), ConsistentRead: true }),
  );
  return Item ? { conversation: fromItem(Item), version: Item.version as number } : undefined;
};

const numberIn = (item: Record<string, unknown> | undefined, total: string) =>
  typeof item?.[total] === 'number' ? (item[total] as number) : 0;

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
  return reads.reduce((sum, r) => sum + numberIn(items.get(r.key.sk), r.total), 0);
};

/** List memberships and the totals of the count items follow the conversation's status, assignee, channel and customer. */
const listWrites = (tenant: Tenant, before: Conversation | undefined, after: Conversation | undefined): Write[] => {
  const { leave, join } = listMoves(before, after);
  const c = (after ?? before)!;
  return [
    ...leave.map((l) => deleteItem(listMembership(tenant, l, c))),
    ...join.map((l) => createItem({ ...listMembership(tenant, l, c), type: 'CONV_LIST', conversationId: c._id })),
    ...[...countMoves(leave, join)].map(([counter, deltas]) => bump(workspaceCounter(tenant, counter), deltas)),
  ];
};

/** Closed conversations by closing time, per tenant: the retention sweep's index (a purge's tombstone stays in it). */
export const closedPartition = (tenant: Tenant) => tenantPk(tenant, K.CLOSED);
const closedIndex = (tenant: Tenant, closedAt: string, id: string) => ({ gsi2pk: closedPartition(tenant), gsi2sk: `${closedAt}#${id}` });

/**
 * The closed index follows the status: a conversation that closes enters it at its closing time (its
 * `updatedAt`), one that stays closed keeps its entry through later edits, and one that reopens leaves it.
 */
const closedIndexChange = (tenant: Tenant, before: Conversation, after: Conversation) => {
  if (after.status !== 'closed') return { remove: ['gsi2pk', 'gsi2sk'] };
  return before.status === 'closed' ? {} : { set: closedIndex(tenant, after.updatedAt, after._id) };
};

/** The writes that store `after` over the version read: its snooze and closed indexes and lists follow it, and a new assignee is checked. */
export const conversationUpdate = (tenant: Tenant, { conversation: before, version }: Stored, after: Conversation): Write[] => {
  const index = snoozeIndex(tenant, after);
  const closed = closedIndexChange(tenant, before, after);
  return [
    versionedUpdate(conversationKey(tenant, before._id), version, before, after, {
      skip: ['tagIds'],
      set: { ...index, ...closed.set },
      remove: [...(index ? [] : ['gsi1pk', 'gsi1sk']), ...(closed.remove ?? [])],
    }),
    ...(after.assigneeId && after.assigneeId !== before.assigneeId ? [activeMemberCheck(tenant, after.assigneeId)] : []),
    ...listWrites(tenant, before, after),
  ];
};

/** The items a newly created conversation consists of, and what it adds to the count items (for bulk loads). */
export const createdItems = (tenant: Tenant, c: Conversation) => ({
  items: [toItem(tenant, c), ...listsOf(c).map((l) => ({ ...listMembership(tenant, l, c), type: 'CONV_LIST', conversationId: c._id }))],
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
  ...listWrites(tenant, undefined, conversation),
];

/**
 * The writes that delete the conversation as read, its list memberships, `uncount` (the writes that uncount it
 * on its customer: `customerCounting`) and its tag links (with their counters), conditional on the version and the number of tags read (a concurrent tagging re-runs it).
 */
export const conversationDeletion = (tenant: Tenant, { conversation, version }: Stored, now: Date, uncount: Write[]): Write[] => [
  deleteItem(conversationKey(tenant, conversation._id), unchangedSinceRead(version, conversation.tagIds)),
  ...listWrites(tenant, conversation, undefined),
  ...uncount,
  ...tagLinkWrites(tenant, 'conversation', conversation._id, conversation.tagIds, -1, now),
];

/** The ids of the conversations in a list, up to `limit` (all of them without), oldest first. */
export const conversationIdsIn = async (tenant: Tenant, list: string, limit?: number): Promise<string[]> => {
  const items =
    limit === undefined
      ? await collect(queryAll({ pk: listPartition(tenant, list), consistent: true }))
      : (await queryPage({ pk: listPartition(tenant, list) }, { limit })).items;
  return items.map((i) => i.conversationId as string);
};

/** The keys of a conversation's partition but the conversation's own (its messages, notes and email thread), each marked when a message. */
export const conversationContents = async (
  tenant: Tenant,
  id: string,
): Promise<{ key: { pk: string; sk: string }; message: boolean }[]> => {
  const { pk } = conversationKey(tenant, id);
  return (await collect(queryAll({ pk, consistent: true })))
    .map((item) => item.sk as string)
    .filter((sk) => sk !== K.CONVERSATION)
    .map((sk) => ({ key: { pk, sk }, message: sk.startsWith(`${K.MSG}#`) }));
};
