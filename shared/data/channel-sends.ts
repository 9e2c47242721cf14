import type { Tenant } from '../domain/auth/tenant';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import type { MessageRef } from '../domain/inbox/message';
import { putItem, type Write } from './transact';
import { channelSend } from './registry/channels';

/** What a channel sent under a key (its `id` in the outgoing POST), written with the `sent` record. */
export type SendTarget = { target: 'message'; ref: MessageRef } | { target: 'recipient'; broadcastId: string; customerId: string };

const key = (tenant: Tenant, channelId: string, sendKey: string) => channelSend.key({ tenant, channelId, sendKey });

export const sendRecord = (tenant: Tenant, channelId: string, sendKey: string, target: SendTarget): Write =>
  putItem({ ...key(tenant, channelId, sendKey), type: 'CHANNEL_SEND', ...target });

export const findSend = async (tenant: Tenant, channelId: string, sendKey: string): Promise<SendTarget | undefined> => {
  const { Item } = await dynamo().send(
    new GetCommand({ TableName: config().TABLE_NAME, Key: key(tenant, channelId, sendKey), ConsistentRead: true }),
  );
  if (!Item) return undefined;
  const send = channelSend.parse(Item);
  if (send.target === 'message' && send.ref) return { target: 'message', ref: send.ref };
  if (send.target === 'recipient' && send.broadcastId && send.customerId)
    return { target: 'recipient', broadcastId: send.broadcastId, customerId: send.customerId };
  throw new Error('A channel send names neither a message nor a recipient');
};
