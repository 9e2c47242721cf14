import type { Tenant } from '../domain/auth/tenant';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import { objectId } from '../ids';
import { buildEnvelope, diff } from '../events/envelope';
import { outboxItem } from './outbox';
import { Refused, Missing } from '../domain/refusal';
import { newConversation, type Change, type Conversation, type NewConversation } from '../domain/inbox/conversation';
import { listMoves, listsOf, statusParts } from '../domain/inbox/lists';
import { channelExists } from './channels';
import { bumpCounter, nextInSequence, readCounter } from './counters';
import { conversationKey, customerKey } from './entity-keys';
import { tagIdsOf, tagLinkWrites, unchangedSinceRead } from './tag-links';
import { lostRace, retryOnConflict } from './retry';
import { versionedUpdate } from './versioned';
import { activeMemberCheck } from './members';
import { indexSk, tenantPk } from './keys';
import { createItem, deleteItem, transact, updateItem, type Write } from './transact';
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

export const requireConversation = async (tenant: Tenant, id: string): Promise<Stored> => {
  const stored = await getConversation(tenant, id);
  if (!stored) throw new Missing('Conversation');
  return stored;
};

const eventsOf = (tenant: Tenant, before: Conversation, change: Change, now: Date): Write[] =>
  change.events.map((e) => {
    const pick = (c: Conversation) => Object.fromEntries(e.fields.map((f) => [f, c[f]]));
    const changes = diff(pick(before), pick(change.conversation));
    return outboxItem(buildEnvelope(`inbox.conversation.${e.name}`, tenant, { conversation: change.conversation }, { changes, now }));
  });

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

/** What a caller's step wants written beside the conversation change: a message, a guard, more events. */
export interface Step {
  change: Change;
  extra?: Write[];
}

/**
 * Read, decide, write: `decide` sees the current conversation and returns the change (or undefined for
 * nothing to do). The write is conditional on the version read, and the whole step re-runs if another
 * writer won the race.
 */
export const mutateConversation = (
  tenant: Tenant,
  id: string,
  decide: (c: Conversation) => Step | undefined,
  now: Date,
): Promise<Conversation> =>
  retryOnConflict(async () => {
    const { conversation: before, version } = await requireConversation(tenant, id);
    const step = decide(before);
    if (!step || (step.change.events.length === 0 && !step.extra?.length)) return step?.change.conversation ?? before;
    const after = step.change.conversation;
    const index = snoozeIndex(tenant, after);
    const update = versionedUpdate(conversationKey(tenant, id), version, before, after, {
      skip: ['tagIds'],
      set: index,
      remove: index ? [] : ['gsi1pk', 'gsi1sk'],
    });
    const assignee = after.assigneeId && after.assigneeId !== before.assigneeId ? [activeMemberCheck(tenant, after.assigneeId)] : [];
    await transact(
      [update, ...assignee, ...listWrites(tenant, before, after), ...eventsOf(tenant, before, step.change, now), ...(step.extra ?? [])],
      lostRace,
    );
    return after;
  });

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

/** Display numbers come from a per-workspace sequence. */
const nextNumber = (tenant: Tenant): Promise<number> => nextInSequence({ pk: tenantPk(tenant), sk: `${K.SEQUENCE}#conversation` });

export const createConversation = async (tenant: Tenant, input: NewConversation, now: Date): Promise<Conversation> => {
  const conversation = newConversation(input, { _id: objectId(now.getTime()), number: await nextNumber(tenant) }, now);
  // Creates share the list counters, so concurrent ones can collide; a collided transaction is simply re-run.
  await retryOnConflict(() =>
    transact(
      [
        // The customer must exist; it counts its conversations and remembers its latest one per channel.
        updateItem(customerKey(tenant, input.customerId), 'SET lastConversations.#ch = :id ADD conversationCount :one', {
          names: { '#ch': conversation.channel },
          values: { ':id': conversation._id, ':one': 1 },
          condition: 'attribute_exists(pk)',
          onFail: () => new Refused('no_such_customer', 'No such customer in this workspace'),
        }),
        createItem(toItem(tenant, conversation)),
        ...(conversation.channelId
          ? [channelExists(tenant, conversation.channelId, () => new Refused('no_such_channel', 'No such channel in this workspace'))]
          : []),
        ...(conversation.assigneeId ? [activeMemberCheck(tenant, conversation.assigneeId)] : []),
        ...listWrites(tenant, undefined, conversation),
        outboxItem(buildEnvelope('inbox.conversation.created', tenant, { conversation }, { now })),
      ],
      lostRace,
    ),
  );
  return conversation;
};

/**
 * Deletes the conversation, its list memberships and its tag links (with their counters). The delete is
 * conditional on the version and the number of tags read, so a concurrent tagging makes it re-run.
 */
export const deleteConversation = (tenant: Tenant, id: string, now: Date): Promise<Conversation> =>
  retryOnConflict(async () => {
    const { conversation, version } = await requireConversation(tenant, id);
    const tags = conversation.tagIds;
    await transact(
      [
        deleteItem(conversationKey(tenant, id), unchangedSinceRead(version, tags)),
        ...listWrites(tenant, conversation, undefined),
        customerCount(tenant, conversation.customerId, -1),
        outboxItem(buildEnvelope('inbox.conversation.deleted', tenant, { conversation }, { now })),
        ...tagLinkWrites(tenant, 'conversation', id, tags, -1, now),
      ],
      lostRace,
    );
    return conversation;
  });
