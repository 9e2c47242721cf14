import type { Tenant } from '../domain/auth/tenant';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import type { MessageRef } from '../domain/inbox/message';
import { customerKey } from './entity-keys';
import { createItem, updateItem, type Write } from './transact';
import { incomingGuard as guard } from './registry/inbox';

/**
 * What a channel's message id was recorded as (keys: registry/inbox.ts), created in the transaction that
 * records the message, so a repeated delivery of the same id is recorded once.
 */

/** The message a channel's message id was recorded as, if it was. */
export const recordedIncoming = async (tenant: Tenant, channel: string, externalId: string): Promise<MessageRef | undefined> => {
  const { Item } = await dynamo().send(
    new GetCommand({ TableName: config().TABLE_NAME, Key: guard.key({ tenant, channel, externalId }), ConsistentRead: true }),
  );
  if (!Item) return undefined;
  const { messageId, conversationId, messageCreatedAt } = guard.parse(Item);
  return { _id: messageId, conversationId, createdAt: messageCreatedAt };
};

/** Records that a channel's message id is `message`; fails with `onFail` when it was already recorded. */
export const incomingGuard = (tenant: Tenant, channel: string, externalId: string, message: MessageRef, onFail: () => Error): Write =>
  createItem(
    {
      ...guard.key({ tenant, channel, externalId }),
      type: 'INCOMING_GUARD',
      conversationId: message.conversationId,
      messageId: message._id,
      messageCreatedAt: message.createdAt,
    },
    onFail,
  );

/** Stamps the customer's last activity, on condition that the customer still exists. */
export const customerActivity = (tenant: Tenant, customerId: string, now: Date): Write =>
  updateItem(customerKey(tenant, customerId), 'SET lastActivityAt = :t', {
    values: { ':t': now.toISOString() },
    condition: 'attribute_exists(pk)',
  });
