import type { Tenant } from '../domain/auth/tenant';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import { batchGet } from './batch-get';
import { emailMessage, emailThread as threadEntity } from './registry/inbox';
import { putItem, type Write } from './transact';

/**
 * Email threading (keys: registry/inbox.ts). A conversation's thread (the Message-IDs of its emails, oldest
 * first, the latest THREAD_LENGTH) is a reply's References. Each Message-ID also names its conversation: an
 * incoming email joins the conversation of the first id its References or In-Reply-To knows.
 */
const THREAD_LENGTH = 20;

export const emailThread = async (tenant: Tenant, conversationId: string): Promise<string[]> => {
  const { Item } = await dynamo().send(
    new GetCommand({ TableName: config().TABLE_NAME, Key: threadEntity.key({ tenant, conversationId }), ConsistentRead: true }),
  );
  return Item ? threadEntity.parse(Item).ids : [];
};

/** Adds `messageId` to the conversation's thread (written with the message or its `sent` record). */
export const threadWrites = (tenant: Tenant, conversationId: string, thread: readonly string[], messageId: string): Write[] => [
  putItem({
    ...threadEntity.key({ tenant, conversationId }),
    type: 'EMAIL_THREAD',
    ids: [...thread.filter((id) => id !== messageId), messageId].slice(-THREAD_LENGTH),
  }),
  putItem({ ...emailMessage.key({ tenant, messageId }), type: 'EMAIL_MESSAGE_ID', conversationId }),
];

/** The conversation the first known id belongs to. */
export const conversationOfEmail = async (tenant: Tenant, messageIds: readonly string[]): Promise<string | undefined> => {
  if (messageIds.length === 0) return undefined;
  const found = await batchGet(messageIds.map((messageId) => emailMessage.key({ tenant, messageId })));
  const byId = new Map(found.map((item) => [emailMessage.read('pk', item.pk).messageId, emailMessage.parse(item).conversationId]));
  return messageIds.map((id) => byId.get(id)).find((conversationId) => conversationId !== undefined);
};
