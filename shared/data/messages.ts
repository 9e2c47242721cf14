import type { Tenant } from '../domain/auth/tenant';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import { objectId } from '../ids';
import { buildEnvelope } from '../events/envelope';
import { outboxItem } from './outbox';
import { applyMessage, newMessage, storedAttachment, type Message, type NewMessage } from '../domain/inbox/message';
import type { Conversation } from '../domain/inbox/conversation';
import { conversationKey } from './entity-keys';
import { mutateConversation, requireConversation } from './conversations';
import { queryPage, type PageRequest } from './query';
import { createItem, type Write } from './transact';
import { attachWrites } from './files';
import { K } from './registry/registry';
import { itemCodec } from './codec';
import { message as messageView } from '../views/inbox';

/** Messages share their conversation's partition: pk=<tenant>#CONV#<conv>, sk=MSG#<createdAt>#<id>, oldest first. */
const MSG = `${K.MSG}#`;
export interface MessageRef {
  _id: string;
  conversationId: string;
  createdAt: string;
}
export const messageKey = (tenant: Tenant, m: MessageRef) => ({
  pk: conversationKey(tenant, m.conversationId).pk,
  sk: `${MSG}${m.createdAt}#${m._id}`,
});

/** The item's `type` names the entity (MESSAGE); the message's own type is stored as `messageType`. */
const toItem = (tenant: Tenant, m: Message) => ({ ...messageKey(tenant, m), ...m, type: 'MESSAGE', messageType: m.type });

const decode = itemCodec(messageView);
/** A message item; one stored before files existed answers its link attachments marked `legacy` (`storedAttachment`). */
export const fromItem = (item: Record<string, unknown>): Message =>
  decode({
    ...item,
    type: item.messageType,
    attachments: (item.attachments as Record<string, unknown>[] | undefined)?.map(storedAttachment),
  });

const eventOf = (tenant: Tenant, message: Message, conversation: Conversation, now: Date) => {
  if (message.type === 'note') return buildEnvelope('inbox.note.created', tenant, { note: message, conversation }, { now });
  const type = message.type === 'incoming' ? 'inbox.message.received' : 'inbox.message.sent';
  return buildEnvelope(type, tenant, { message, conversation }, { now });
};

export interface Posted {
  message: Message;
  conversation: Conversation;
}

/**
 * Adds a message and applies it to its conversation (counts, unread, last message time, reopening) in one
 * transaction with its event. `extra` rides along in the same transaction (e.g. an idempotency guard).
 */
export const postMessage = async (
  tenant: Tenant,
  conversationId: string,
  input: NewMessage,
  now: Date,
  extra: (message: Message) => Write[] = () => [],
): Promise<Posted> => {
  const message = newMessage(input, { _id: objectId(now.getTime()), conversationId }, now);
  const conversation = await mutateConversation(
    tenant,
    conversationId,
    (before) => {
      const change = applyMessage(before, message);
      return {
        change,
        extra: [
          createItem(toItem(tenant, message)),
          outboxItem(eventOf(tenant, message, change.conversation, now)),
          ...attachWrites(tenant, conversationId, input.attachments ?? []),
          ...extra(message),
        ],
      };
    },
    now,
  );
  return { message, conversation };
};

export const getMessage = async (tenant: Tenant, ref: MessageRef): Promise<Message | undefined> => {
  const { Item } = await dynamo().send(
    new GetCommand({ TableName: config().TABLE_NAME, Key: messageKey(tenant, ref), ConsistentRead: true }),
  );
  return Item ? fromItem(Item) : undefined;
};

/** A conversation's messages oldest → newest; the total is the conversation's own message count. */
export const listMessages = async (tenant: Tenant, conversationId: string, page: PageRequest) => {
  const { conversation } = await requireConversation(tenant, conversationId);
  const result = await queryPage({ pk: conversationKey(tenant, conversationId).pk, skPrefix: MSG }, page);
  return { messages: result.items.map(fromItem), total: conversation.messageCount, nextCursor: result.nextCursor };
};

/** A conversation's latest messages, newest first: one Query of `limit` items. */
export const latestMessages = async (tenant: Tenant, conversationId: string, limit: number): Promise<Message[]> => {
  const result = await queryPage({ pk: conversationKey(tenant, conversationId).pk, skPrefix: MSG, newestFirst: true }, { limit });
  return result.items.map(fromItem);
};
