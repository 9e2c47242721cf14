import type { Tenant } from '../domain/auth/tenant';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import { storedAttachment, type Message, type MessageRef } from '../domain/inbox/message';
import { conversationKey } from './entity-keys';
import { queryPage, type PageRequest } from './query';
import { createItem, type Write } from './transact';
import { K } from './registry/registry';
import { itemCodec } from './codec';
import { packText, unpackText } from '../packed-text';
import { message as messageView } from '../views/inbox';

/** Messages share their conversation's partition: pk=<tenant>#CONV#<conv>, sk=MSG#<createdAt>#<id>, oldest first. */
const MSG = `${K.MSG}#`;
export const messageKey = (tenant: Tenant, m: MessageRef) => ({
  pk: conversationKey(tenant, m.conversationId).pk,
  sk: `${MSG}${m.createdAt}#${m._id}`,
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

const decode = itemCodec(messageView);
/** A message item; one stored before files existed answers its link attachments marked `legacy` (`storedAttachment`). */
export const fromItem = (item: Record<string, unknown>): Message =>
  decode({
    ...item,
    content: unpackText(item, 'content') ?? null,
    type: item.messageType,
    attachments: (item.attachments as Record<string, unknown>[] | undefined)?.map(storedAttachment),
  });

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
  const result = await queryPage({ pk: conversationKey(tenant, conversationId).pk, skPrefix: MSG }, page);
  return { messages: result.items.map(fromItem), nextCursor: result.nextCursor };
};

/** A conversation's latest messages, newest first: one Query of `limit` items. */
export const latestMessages = async (tenant: Tenant, conversationId: string, limit: number): Promise<Message[]> => {
  const result = await queryPage({ pk: conversationKey(tenant, conversationId).pk, skPrefix: MSG, newestFirst: true }, { limit });
  return result.items.map(fromItem);
};
