import type { Tenant } from '../domain/auth/tenant';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import { tenantPk } from './keys';
import type { MessageRef } from '../domain/inbox/message';
import { putItem, type Write } from './transact';
import { K } from './registry/registry';

/**
 * What a channel sent under a key (its `id` in the outgoing POST): pk=<tenant>#CHSEND#<channel>#<key>.
 * Written with the `sent` record, it lets a status callback find the message or broadcast recipient.
 */
export type SendTarget = { target: 'message'; ref: MessageRef } | { target: 'recipient'; broadcastId: string; customerId: string };

const key = (tenant: Tenant, channelId: string, sendKey: string) => ({ pk: tenantPk(tenant, K.CHSEND, channelId, sendKey), sk: K.CHSEND });

export const sendRecord = (tenant: Tenant, channelId: string, sendKey: string, target: SendTarget): Write =>
  putItem({ ...key(tenant, channelId, sendKey), type: 'CHANNEL_SEND', ...target });

export const findSend = async (tenant: Tenant, channelId: string, sendKey: string): Promise<SendTarget | undefined> => {
  const { Item } = await dynamo().send(
    new GetCommand({ TableName: config().TABLE_NAME, Key: key(tenant, channelId, sendKey), ConsistentRead: true }),
  );
  if (!Item) return undefined;
  return Item.target === 'message'
    ? { target: 'message', ref: Item.ref as MessageRef }
    : { target: 'recipient', broadcastId: Item.broadcastId as string, customerId: Item.customerId as string };
};
