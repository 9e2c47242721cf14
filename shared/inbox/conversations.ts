import type { Tenant } from '../domain/auth/tenant';
import { Missing, Refused } from '../domain/refusal';
import { conversationChannelOf } from '../domain/channels/account';
import {
  newConversation,
  STATUSES,
  type Change,
  type Channel,
  type Conversation,
  type NewConversation,
  type Status,
} from '../domain/inbox/conversation';
import { assign, type ConversationEdit, edit, unassign } from '../domain/inbox/edits';
import { listSource, type ConversationFilters } from '../domain/inbox/lists';
import { changeStatus } from '../domain/inbox/state-machine';
import { buildEnvelope, diff } from '../events/envelope';
import { objectId } from '../ids';
import { channelExists, getChannel } from '../data/channels';
import {
  conversationCreation,
  conversationIdsIn,
  conversationUpdate,
  getConversation,
  listTotal,
  nextConversationNumber,
  type Stored,
} from '../data/conversations';
import { conversationsPage } from '../data/conversations-lists';
import { outboxItem } from '../data/outbox';
import type { PageRequest } from '../data/query';
import { backoff, lostRace, retryOnConflict } from '../data/retry';
import type { Write } from '../data/transact';
import type { Unit } from '../data/unit';
import { conversationRemoval } from './conversation-removal';
import { customerConversationCount, customerCounting } from '../data/customers-conversations';

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

/** What a caller's step wants written beside the conversation change: a message, a guard, more events. */
interface Step {
  change: Change;
  extra?: Write[];
}

/**
 * Read, decide, write: `decide` sees the current conversation and returns the change (or undefined for
 * nothing to do). The write is conditional on the version read, and the whole step re-runs if another
 * writer won the race.
 */
export const mutateConversation = (
  unit: Unit,
  tenant: Tenant,
  id: string,
  decide: (c: Conversation) => Step | undefined | Promise<Step | undefined>,
  now: Date,
): Promise<Conversation> =>
  retryOnConflict(async () => {
    const stored = await requireConversation(tenant, id);
    const before = stored.conversation;
    const step = await decide(before);
    if (!step || (step.change.events.length === 0 && !step.extra?.length)) return step?.change.conversation ?? before;
    const after = step.change.conversation;
    await unit.commit(
      [...conversationUpdate(tenant, stored, after), ...eventsOf(tenant, before, step.change, now), ...(step.extra ?? [])],
      lostRace,
    );
    return after;
  });

/**
 * What is stored with a new conversation in its transaction (a customer's first message): the conversation
 * as that leaves it, the writes, and those that count it on its customer (by default `customerCounting`).
 */
export interface Opening {
  conversation: Conversation;
  writes: Write[];
  customer?: Write[];
}

/**
 * Without a `channel`, the conversation is filed under its account's kind when `channelId` names one, else under `api`.
 * The customer and the account must exist, and the assignee be active, in the create's own transaction. `opening`
 * adds what is stored with it (its `inbox.conversation.created` event still shows it as created).
 */
export const createConversation = async (
  unit: Unit,
  tenant: Tenant,
  input: Omit<NewConversation, 'channel'> & { channel?: Channel },
  now: Date,
  opening: (created: Conversation) => Opening = (created) => ({ conversation: created, writes: [] }),
): Promise<Conversation> => {
  // An account's type never changes, so reading it first is safe; its existence is checked in the create's transaction.
  const account = input.channel === undefined && input.channelId ? await getChannel(tenant, input.channelId) : undefined;
  const channel = input.channel ?? (account ? conversationChannelOf(account.type) : 'api');
  const created = newConversation(
    { ...input, channel },
    { _id: objectId(now.getTime()), number: await nextConversationNumber(tenant) },
    now,
  );
  const { conversation, writes: alongside, customer } = opening(created);
  const latest = { channel: conversation.channel, conversationId: conversation._id };
  // Creates share the count items, so concurrent ones can collide; a collided transaction is simply re-run.
  await retryOnConflict(async () => {
    const counting = customer ?? (await customerCounting(tenant, conversation.customerId, 1, latest));
    await unit.commit(
      [
        ...conversationCreation(tenant, conversation, counting),
        ...(conversation.channelId
          ? [channelExists(tenant, conversation.channelId, () => new Refused('no_such_channel', 'No such channel in this workspace'))]
          : []),
        outboxItem(buildEnvelope('inbox.conversation.created', tenant, { conversation: created }, { now })),
        ...alongside,
      ],
      lostRace,
    );
  });
  return conversation;
};

/**
 * Deletes the conversation, its list memberships and its tag links (with their counters). The delete is
 * conditional on the version and the number of tags read, so a concurrent tagging makes it re-run.
 */
export const deleteConversation = (unit: Unit, tenant: Tenant, id: string, now: Date): Promise<Conversation> =>
  retryOnConflict(async () => {
    const stored = await requireConversation(tenant, id);
    const { conversation } = stored;
    await unit.commit(
      [
        ...(await conversationRemoval(tenant, stored, now)),
        outboxItem(buildEnvelope('inbox.conversation.deleted', tenant, { conversation }, { now })),
      ],
      lostRace,
    );
    return conversation;
  });

/** One page of the list a filter selects: O(limit) reads with a cursor, and an O(1) exact total. */
export const listConversations = async (tenant: Tenant, filters: ConversationFilters, page: PageRequest) =>
  conversationsPage(
    tenant,
    listSource(filters),
    page,
    filters.customerId ? () => customerConversationCount(tenant, filters.customerId!) : undefined,
  );

const applyRule = (unit: Unit, tenant: Tenant, id: string, rule: (c: Conversation) => Change, now: Date): Promise<Conversation> =>
  mutateConversation(unit, tenant, id, (c) => ({ change: rule(c) }), now);

export const editConversation = (unit: Unit, tenant: Tenant, id: string, patch: ConversationEdit, now: Date): Promise<Conversation> =>
  applyRule(unit, tenant, id, (c) => edit(c, patch, now), now);

export const assignConversation = (unit: Unit, tenant: Tenant, id: string, assigneeId: string, now: Date): Promise<Conversation> =>
  applyRule(unit, tenant, id, (c) => assign(c, assigneeId, now), now);

export const unassignConversation = (unit: Unit, tenant: Tenant, id: string, now: Date): Promise<Conversation> =>
  applyRule(unit, tenant, id, (c) => unassign(c, now), now);

/** Moves the conversation to `status` if its current status allows it; a snooze needs `snoozedUntil`. */
export const changeConversationStatus = (
  unit: Unit,
  tenant: Tenant,
  id: string,
  { status, snoozedUntil }: { status: Status; snoozedUntil?: string },
  now: Date,
): Promise<Conversation> => applyRule(unit, tenant, id, (c) => changeStatus(c, status, { snoozedUntil, now }), now);

/** Rounds of unassigning a removed member's conversations before the removal is left to its timer. */
const UNASSIGN_ROUNDS = 5;

/**
 * Unassigns a removed member's open conversations, each in its own transaction with its
 * `inbox.conversation.unassigned` event (any number of them: no transaction holds more than one). A
 * conversation deleted or reassigned meanwhile is left alone, so running it again finishes what is left.
 * Their lists are index entries (eventually consistent on AWS), so a conversation assigned a moment before the
 * removal may not show yet: the member's exact totals say when none is left, and until then it reads again
 * (then fails, leaving the removal to the `finish-member-removals` timer).
 */
export const unassignMemberConversations = async (unit: Unit, tenant: Tenant, memberId: string, now: Date): Promise<void> => {
  const lists = STATUSES.filter((s) => s !== 'closed').map((status) => `assignee:${memberId}:status:${status}`);
  for (let round = 1; ; round++) {
    for (const list of lists) {
      for (const id of await conversationIdsIn(tenant, list)) {
        await mutateConversation(
          unit,
          tenant,
          id,
          (c) => (c.assigneeId === memberId ? { change: unassign(c, now) } : undefined),
          now,
        ).catch((error: unknown) => {
          if (!(error instanceof Missing)) throw error;
        });
      }
    }
    const left = (await Promise.all(lists.map((list) => listTotal(tenant, list)))).reduce((a, b) => a + b, 0);
    if (left === 0) return;
    if (round >= UNASSIGN_ROUNDS) throw new Error(`${left} conversations still assigned to removed member ${memberId}`);
    await backoff(round, 100, 2000);
  }
};

const MOVE_BATCH = 25;

/** Moves every conversation of customer `from` to `to` (a merge), one transaction (and one `updated` event) each; answers how many. */
export const moveCustomerConversations = async (unit: Unit, tenant: Tenant, from: string, to: string, now: Date): Promise<number> => {
  let moved = 0;
  for (;;) {
    const ids = await conversationIdsIn(tenant, `customer:${from}`, MOVE_BATCH);
    if (ids.length === 0) return moved;
    for (const id of ids) {
      await mutateConversation(
        unit,
        tenant,
        id,
        async (c) =>
          c.customerId !== from
            ? undefined
            : {
                change: {
                  conversation: { ...c, customerId: to, updatedAt: now.toISOString() },
                  events: [{ name: 'updated', fields: ['customerId'] }],
                },
                extra: [...(await customerCounting(tenant, from, -1)), ...(await customerCounting(tenant, to, 1))],
              },
        now,
      );
      moved++;
    }
  }
};
