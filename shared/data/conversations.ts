import type { Tenant } from '../domain/auth/tenant';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import { objectId } from '../ids';
import { buildEnvelope, diff } from '../events/envelope';
import { outboxItem } from './outbox';
import { NotFoundError } from '../domain/errors';
import { Refused } from '../domain/refusal';
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
export const listPartition = (ws: Tenant, list: string) => tenantPk(ws, K.CONVLIST, list);
const listMembership = (ws: Tenant, list: string, c: Conversation) => ({ pk: listPartition(ws, list), sk: `${c.createdAt}#${c._id}` });

export const listsCounter = (list: string) => `conversations:${list}`;

export interface Stored {
  conversation: Conversation;
  version: number;
}

const snoozeIndex = (ws: Tenant, c: Conversation) =>
  c.status === 'snoozed' && c.snoozedUntil ? { gsi1pk: SNOOZED_INDEX, gsi1sk: indexSk(c.snoozedUntil, ws, c._id) } : undefined;


const decode = itemCodec(conversationView);
export const fromItem = (item: Record<string, unknown>): Conversation => decode({ ...item, tagIds: tagIdsOf(item.tagIds) });

const toItem = (ws: Tenant, c: Conversation) => {
  const { tagIds: _tags, ...fields } = c;
  return { ...conversationKey(ws, c._id), type: 'CONVERSATION', version: 1, ...fields, ...snoozeIndex(ws, c) };
};

export const getConversation = async (ws: Tenant, id: string): Promise<Stored | undefined> => {
  const { Item } = await dynamo().send(new GetCommand({ TableName: config().TABLE_NAME, Key: conversationKey(ws, id), ConsistentRead: true }));
  return Item ? { conversation: fromItem(Item), version: Item.version as number } : undefined;
};

export const requireConversation = async (ws: Tenant, id: string): Promise<Stored> => {
  const stored = await getConversation(ws, id);
  if (!stored) throw new NotFoundError('Conversation');
  return stored;
};

const eventsOf = (ws: Tenant, before: Conversation, change: Change, now: Date): Write[] =>
  change.events.map((e) => {
    const pick = (c: Conversation) => Object.fromEntries(e.fields.map((f) => [f, c[f]]));
    const changes = diff(pick(before), pick(change.conversation));
    return outboxItem(buildEnvelope(`inbox.conversation.${e.name}`, ws, { conversation: change.conversation }, { changes, now }));
  });

/** The customer whose list this is: its total is the customer's own count of its conversations, kept in the same transactions. */
const customerOf = (list: string) => (list.startsWith('customer:') ? list.slice('customer:'.length) : undefined);

/** A list's counter bump, unless the list's total is kept elsewhere (its status parts' counters, its customer's count). */
const counted = (ws: Tenant, list: string, delta: number): Write[] => (statusParts(list) || customerOf(list) ? [] : [bumpCounter(ws, listsCounter(list), delta)]);

/** A list's exact total: its counter, the sum of its status parts' counters, or its customer's count of conversations. */
export const listTotal = async (ws: Tenant, list: string): Promise<number> => {
  const customerId = customerOf(list);
  if (customerId) {
    const { Item } = await dynamo().send(
      new GetCommand({ TableName: config().TABLE_NAME, Key: customerKey(ws, customerId), ConsistentRead: true, ProjectionExpression: 'conversationCount' }),
    );
    return (Item?.conversationCount as number | undefined) ?? 0;
  }
  return (await Promise.all((statusParts(list) ?? [list]).map((l) => readCounter(ws, listsCounter(l))))).reduce((a, b) => a + b, 0);
};

/** List memberships and their counters follow the conversation's status, assignee, channel and customer. */
const listWrites = (ws: Tenant, before: Conversation | undefined, after: Conversation | undefined): Write[] => {
  const { leave, join } = listMoves(before, after);
  const c = (after ?? before)!;
  return [
    ...leave.flatMap((l) => [deleteItem(listMembership(ws, l, c)), ...counted(ws, l, -1)]),
    ...join.flatMap((l) => [createItem({ ...listMembership(ws, l, c), type: 'CONV_LIST', conversationId: c._id }), ...counted(ws, l, 1)]),
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
  ws: Tenant,
  id: string,
  decide: (c: Conversation) => Step | undefined,
  now: Date,
): Promise<Conversation> =>
  retryOnConflict(async () => {
    const { conversation: before, version } = await requireConversation(ws, id);
    const step = decide(before);
    if (!step || (step.change.events.length === 0 && !step.extra?.length)) return step?.change.conversation ?? before;
    const after = step.change.conversation;
    const index = snoozeIndex(ws, after);
    const update = versionedUpdate(conversationKey(ws, id), version, before, after, {
      skip: ['tagIds'],
      set: index,
      remove: index ? [] : ['gsi1pk', 'gsi1sk'],
    });
    const assignee = after.assigneeId && after.assigneeId !== before.assigneeId ? [activeMemberCheck(ws, after.assigneeId)] : [];
    await transact([update, ...assignee, ...listWrites(ws, before, after), ...eventsOf(ws, before, step.change, now), ...(step.extra ?? [])], lostRace);
    return after;
  });

/** The customer's own count of its conversations: a customer with conversations cannot be deleted. */
export const customerCount = (ws: Tenant, customerId: string, delta: number): Write =>
  updateItem(customerKey(ws, customerId), 'ADD conversationCount :d', { values: { ':d': delta }, condition: 'attribute_exists(pk)' });

/** The items a newly created conversation consists of, and the lists whose counters it adds to (for bulk loads). */
export const createdItems = (ws: Tenant, c: Conversation) => ({
  items: [toItem(ws, c), ...listsOf(c).map((l) => ({ ...listMembership(ws, l, c), type: 'CONV_LIST', conversationId: c._id }))],
  counters: listsOf(c).filter((l) => !statusParts(l) && !customerOf(l)).map(listsCounter),
});

/** Display numbers come from a per-workspace sequence. */
const nextNumber = (ws: Tenant): Promise<number> => nextInSequence({ pk: tenantPk(ws), sk: `${K.SEQUENCE}#conversation` });

export const createConversation = async (ws: Tenant, input: NewConversation, now: Date): Promise<Conversation> => {
  const conversation = newConversation(input, { _id: objectId(now.getTime()), number: await nextNumber(ws) }, now);
  // Creates share the list counters, so concurrent ones can collide; a collided transaction is simply re-run.
  await retryOnConflict(() =>
    transact(
      [
        // The customer must exist; it counts its conversations and remembers its latest one per channel.
        updateItem(customerKey(ws, input.customerId), 'SET lastConversations.#ch = :id ADD conversationCount :one', {
          names: { '#ch': conversation.channel },
          values: { ':id': conversation._id, ':one': 1 },
          condition: 'attribute_exists(pk)',
          onFail: () => new Refused('no_such_customer', 'No such customer in this workspace'),
        }),
        createItem(toItem(ws, conversation)),
        ...(conversation.channelId
          ? [channelExists(ws, conversation.channelId, () => new Refused('no_such_channel', 'No such channel in this workspace'))]
          : []),
        ...(conversation.assigneeId ? [activeMemberCheck(ws, conversation.assigneeId)] : []),
        ...listWrites(ws, undefined, conversation),
        outboxItem(buildEnvelope('inbox.conversation.created', ws, { conversation }, { now })),
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
export const deleteConversation = (ws: Tenant, id: string, now: Date): Promise<Conversation> =>
  retryOnConflict(async () => {
    const { conversation, version } = await requireConversation(ws, id);
    const tags = conversation.tagIds;
    await transact(
      [
        deleteItem(conversationKey(ws, id), unchangedSinceRead(version, tags)),
        ...listWrites(ws, conversation, undefined),
        customerCount(ws, conversation.customerId, -1),
        outboxItem(buildEnvelope('inbox.conversation.deleted', ws, { conversation }, { now })),
        ...tagLinkWrites(ws, 'conversation', id, tags, -1, now),
      ],
      lostRace,
    );
    return conversation;
  });
