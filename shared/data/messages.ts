import type { Tenant } from '../domain/auth/tenant';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import type { Message, MessageRef } from '../domain/inbox/message';
import { queryPage, type PageRequest } from './query';
import { createItem, type Write } from './transact';
import { message as messageEntity } from './registry/inbox';
import { packText, unpackText } from '../packed-text';

/** Messages share their conversation's partition (keys: registry/inbox.ts), oldest first. */
export const messageKey = (tenant: Tenant, m: MessageRef) =>
  messageEntity.key({ tenant, conversationId: m.conversationId, createdAt: m.createdAt, id: m._id });

/** Where a conversation's messages are. */
const messagesOf = (tenant: Tenant, conversationId: string) => ({
  pk: messageEntity.build('pk', { tenant, conversationId }),
  skPrefix: messageEntity.prefix('sk', {}),
});

/**
 * The item's `type` names the entity (MESSAGE); the message's own type is stored as `messageType`. Long
 * content is stored packed (`contentZ`, see `packText`), so a long reply's item is billed fewer KB.
 */
const toItem = (tenant: Tenant, { content, ...m }: Message) => ({
  ...messageKey(tenant, m),
  ...m,
  ...(content === null ? { content } : packText('content', content)),
  type: 'MESSAGE',
  messageType: m.type,
});

/**
 * A message item as read: the message (its content unpacked; one stored before files existed answers its link
 * attachments marked `legacy`) and the send state an outgoing one carries.
 */
export const storedMessage = (item: Record<string, unknown>) => {
  const {
    _id,
    conversationId,
    messageType,
    contentZ: _packed,
    sendAttempts,
    sendLeaseUntil,
    sendNotBefore,
    providerMessageId,
    ...m
  } = messageEntity.parse({ ...item, content: unpackText(item, 'content') ?? null });
  const message: Message = { _id, conversationId, type: messageType, ...m };
  return { message, send: { attempts: sendAttempts ?? 0, leaseUntil: sendLeaseUntil, notBefore: sendNotBefore, providerMessageId } };
};

export const fromItem = (item: Record<string, unknown>): Message => storedMessage(item).message;

/** The write that stores a new message. */
export const messageCreation = (tenant: Tenant, message: Message): Write => createItem(toItem(tenant, message));

export const getMessage = async (tenant: Tenant, ref: MessageRef): Promise<Message | undefined> => {
  const { Item } = await dynamo().send(
    new GetCommand({ TableName: config().TABLE_NAME, Key: messageKey(tenant, ref), ConsistentRead: true }),
  );
  return Item ? fromItem(Item) : undefined;
};

/** One page of a conversation's messages, oldest → newest. */
export const messagesPage = async (tenant: Tenant, conversationId: string, page: PageRequest) => {
  const result = await queryPage(messagesOf(tenant, conversationId), page);
  return { messages: result.items.map(fromItem), nextCursor: result.nextCursor };
};

/** A conversation's latest messages, newest first: one Query of `limit` items. */
export const latestMessages = async (tenant: Tenant, conversationId: string, limit: number): Promise<Message[]> => {
  const result = await queryPage({ ...messagesOf(tenant, conversationId), newestFirst: true }, { limit });
  return result.items.map(fromItem);
};
