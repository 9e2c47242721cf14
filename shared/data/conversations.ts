import type { Tenant } from '../domain/auth/tenant';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import { Refused } from '../domain/refusal';
import type { Conversation } from '../domain/inbox/conversation';
import { listMoves, listsOf, statusParts } from '../domain/inbox/lists';
import { bumpCounter, nextInSequence, readCounter } from './counters';
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

const listsCounter = (list: string) => `conversations:${list}`;

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

/** The customer whose list this is: its total is the customer's own count of its conversations, kept in the same transactions. */
const customerOf = (list: string) => (list.startsWith('customer:') ? list.slice('customer:'.length) : undefined);

/** A list's counter bump, unless the list's total is kept elsewhere (its status parts' counters, its customer's count). */
const counted = (tenant: Tenant, list: string, delta: number): Write[] =>
  statusParts(list) || customerOf(list) ? [] : [bumpCounter(tenant, listsCounter(list), delta)];

/** A list's exact total: its counter, the sum of its status parts' counters, or its customer's count of conversations. */
export const listTotal = async (tenant: Tenant, list: string): Promise<number> => {
  const customerId = customerOf(list);
  if (customerId) {
    const { Item } = await dynamo().send(
      new GetCommand({
        TableName: config().TABLE_NAME,
        Key: customerKey(tenant, customerId),
        ConsistentRead: true,
        ProjectionExpression: 'conversationCount',
      }),
    );
    return (Item?.conversationCount as number | undefined) ?? 0;
  }
  return (await Promise.all((statusParts(list) ?? [list]).map((l) => readCounter(tenant, listsCounter(l))))).reduce((a, b) => a + b, 0);
};

/** List memberships and their counters follow the conversation's status, assignee, channel and customer. */
const listWrites = (tenant: Tenant, before: Conversation | undefined, after: Conversation | undefined): Write[] => {
  const { leave, join } = listMoves(before, after);
  const c = (after ?? before)!;
  return [
    ...leave.flatMap((l) => [deleteItem(listMembership(tenant, l, c)), ...counted(tenant, l, -1)]),
    ...join.flatMap((l) => [
      createItem({ ...listMembership(tenant, l, c), type: 'CONV_LIST', conversationId: c._id }),
      ...counted(tenant, l, 1),
    ]),
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

/** The customer's own count of its conversations: a customer with conversations cannot be deleted. */
export const customerCount = (tenant: Tenant, customerId: string, delta: number): Write =>
  updateItem(customerKey(tenant, customerId), 'ADD conversationCount :d', { values: { ':d': delta }, condition: 'attribute_exists(pk)' });

/** The items a newly created conversation consists of, and the lists whose counters it adds to (for bulk loads). */
export const createdItems = (tenant: Tenant, c: Conversation) => ({
  items: [toItem(tenant, c), ...listsOf(c).map((l) => ({ ...listMembership(tenant, l, c), type: 'CONV_LIST', conversationId: c._id }))],
  counters: listsOf(c)
    .filter((l) => !statusParts(l) && !customerOf(l))
    .map(listsCounter),
});

/** The workspace's next display number, from its sequence (a failed create leaves a gap, never a duplicate). */
export const nextConversationNumber = (tenant: Tenant): Promise<number> =>
  nextInSequence({ pk: tenantPk(tenant), sk: `${K.SEQUENCE}#conversation` });

/**
 * The writes that store a new conversation: its item and lists, its customer's count of its conversations and
 * latest one per channel (refused when the customer does not exist), and the check of its assignee.
 */
export const conversationCreation = (tenant: Tenant, conversation: Conversation): Write[] => [
  updateItem(customerKey(tenant, conversation.customerId), 'SET lastConversations.#ch = :id ADD conversationCount :one', {
    names: { '#ch': conversation.channel },
    values: { ':id': conversation._id, ':one': 1 },
    condition: 'attribute_exists(pk)',
    onFail: () => new Refused('no_such_customer', 'No such customer in this workspace'),
  }),
  createItem(toItem(tenant, conversation)),
  ...(conversation.assigneeId ? [activeMemberCheck(tenant, conversation.assigneeId)] : []),
  ...listWrites(tenant, undefined, conversation),
];

/**
 * The writes that delete the conversation as read, its list memberships, its customer's count and its tag
 * links (with their counters), conditional on the version and the number of tags read (a concurrent tagging re-runs it).
 */
export const conversationDeletion = (tenant: Tenant, { conversation, version }: Stored, now: Date): Write[] => [
  deleteItem(conversationKey(tenant, conversation._id), unchangedSinceRead(version, conversation.tagIds)),
  ...listWrites(tenant, conversation, undefined),
  customerCount(tenant, conversation.customerId, -1),
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
