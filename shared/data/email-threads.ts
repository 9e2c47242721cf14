import type { Tenant } from '../domain/auth/tenant';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import { batchGet } from './batch-get';
import { conversationKey } from './entity-keys';
import { tenantPk } from './keys';
import { putItem, type Write } from './transact';
import { K } from './registry/registry';

/**
 * Email threading. A conversation's thread (the Message-IDs of its emails, oldest first, the latest
 * THREAD_LENGTH) is the item sk=EMAIL_THREAD in its partition: a reply's References. Each Message-ID also
 * names its conversation, pk=<tenant>#EMAILMSG#<id>: an incoming email joins the conversation of the
 * first id its References or In-Reply-To knows.
 */
const THREAD_LENGTH = 20;
const threadKey = (tenant: Tenant, conversationId: string) => ({ pk: conversationKey(tenant, conversationId).pk, sk: K.EMAIL_THREAD });
const idKey = (tenant: Tenant, messageId: string) => ({ pk: tenantPk(tenant, K.EMAILMSG, messageId), sk: K.EMAILMSG });

export const emailThread = async (tenant: Tenant, conversationId: string): Promise<string[]> => {
  const { Item } = await dynamo().send(
    new GetCommand({ TableName: config().TABLE_NAME, Key: threadKey(tenant, conversationId), ConsistentRead: true }),
  );
  return (Item?.ids as string[] | undefined) ?? [];
};

/** Adds `messageId` to the conversation's thread (written with the message or its `sent` record). */
export const threadWrites = (tenant: Tenant, conversationId: string, thread: readonly string[], messageId: string): Write[] => [
  putItem({
    ...threadKey(tenant, conversationId),
    type: 'EMAIL_THREAD',
    ids: [...thread.filter((id) => id !== messageId), messageId].slice(-THREAD_LENGTH),
  }),
  putItem({ ...idKey(tenant, messageId), type: 'EMAIL_MESSAGE_ID', conversationId }),
];

/** The conversation the first known id belongs to. */
export const conversationOfEmail = async (tenant: Tenant, messageIds: readonly string[]): Promise<string | undefined> => {
  if (messageIds.length === 0) return undefined;
  const found = await batchGet(messageIds.map((id) => idKey(tenant, id)));
  const byId = new Map(found.map((item) => [item.pk as string, item.conversationId as string]));
  for (const id of messageIds) {
    const conversationId = byId.get(idKey(tenant, id).pk);
    if (conversationId) return conversationId;
  }
  return undefined;
};
