import type { Tenant } from '../domain/auth/tenant';
import { applyMessage, newMessage, type Message, type NewMessage } from '../domain/inbox/message';
import type { Channel, Conversation, NewConversation } from '../domain/inbox/conversation';
import { buildEnvelope } from '../events/envelope';
import { objectId } from '../ids';
import { customerOpening } from '../data/conversations';
import { attachWrites } from '../data/files';
import { messageCreation, messagesPage } from '../data/messages';
import { outboxItem } from '../data/outbox';
import type { PageRequest } from '../data/query';
import type { Write } from '../data/transact';
import type { Unit } from '../data/unit';
import { resolveAttachments } from '../files/files';
import { createConversation, mutateConversation, requireConversation } from './conversations';

const eventOf = (tenant: Tenant, message: Message, conversation: Conversation, now: Date) => {
  if (message.type === 'note') return buildEnvelope('inbox.note.created', tenant, { note: message, conversation }, { now });
  const type = message.type === 'incoming' ? 'inbox.message.received' : 'inbox.message.sent';
  return buildEnvelope(type, tenant, { message, conversation }, { now });
};

export interface Posted {
  message: Message;
  conversation: Conversation;
}

/** The writes that store `message` beside its conversation's change: the message, its event, its files' binding and `extra`. */
const messageWrites = (tenant: Tenant, message: Message, conversation: Conversation, input: NewMessage, now: Date, extra: Write[]) => [
  messageCreation(tenant, message),
  outboxItem(eventOf(tenant, message, conversation, now)),
  ...attachWrites(tenant, message.conversationId, input.attachments ?? []),
  ...extra,
];

/**
 * Adds a message and applies it to its conversation (counts, unread, last message time, reopening) in one
 * transaction with its event. `extra` rides along in the same transaction (e.g. an idempotency guard).
 */
export const postMessage = async (
  unit: Unit,
  tenant: Tenant,
  conversationId: string,
  input: NewMessage,
  now: Date,
  extra: (message: Message) => Write[] = () => [],
): Promise<Posted> => {
  const message = newMessage(input, { _id: objectId(now.getTime()), conversationId }, now);
  const conversation = await mutateConversation(
    unit,
    tenant,
    conversationId,
    (before) => {
      const change = applyMessage(before, message);
      return { change, extra: messageWrites(tenant, message, change.conversation, input, now, extra(message)) };
    },
    now,
  );
  return { message, conversation };
};

/**
 * A customer's first message and the conversation it opens, in one transaction: the conversation is stored
 * as the message leaves it (written once, not created then updated), and the customer's update that counts
 * the conversation also stamps its last activity. `customer` replaces that update when the customer is
 * created in the same transaction (a new sender): its writes then count the conversation.
 */
export const openWithMessage = async (
  unit: Unit,
  tenant: Tenant,
  conversation: Omit<NewConversation, 'channel'> & { channel: Channel },
  input: NewMessage,
  now: Date,
  extra: (message: Message) => Write[],
  customer?: (opened: Conversation) => Write[],
): Promise<Posted> => {
  let message: Message | undefined;
  const opened = await createConversation(unit, tenant, conversation, now, (created) => {
    message = newMessage(input, { _id: objectId(now.getTime()), conversationId: created._id }, now);
    const after = applyMessage(created, message).conversation;
    return {
      conversation: after,
      writes: messageWrites(tenant, message, after, input, now, extra(message)),
      customer: customer ? customer(after) : [customerOpening(tenant, after, message.createdAt)],
    };
  });
  return { message: message!, conversation: opened };
};

/** A conversation's messages oldest → newest; the total is the conversation's own message count. */
export const listMessages = async (tenant: Tenant, conversationId: string, page: PageRequest) => {
  const { conversation } = await requireConversation(tenant, conversationId);
  return { ...(await messagesPage(tenant, conversationId, page)), total: conversation.messageCount };
};

type WithRefs<T> = Omit<T, 'attachments'> & { attachments?: { fileId: string }[] };

/** A reply or note: the files it names must be ready files of this tenant (404 otherwise), bound to the conversation with it. */
export const postReply = async (
  unit: Unit,
  tenant: Tenant,
  conversationId: string,
  input: WithRefs<NewMessage>,
  now: Date,
): Promise<Posted> =>
  postMessage(
    unit,
    tenant,
    conversationId,
    { ...input, attachments: await resolveAttachments(tenant, input.attachments, conversationId, now) },
    now,
  );
