import type { Tenant } from '../../shared/domain/auth/tenant';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../../shared/aws/dynamo';
import { config } from '../../shared/config';
import { signature } from '../../shared/domain/webhooks/sign';
import { createCustomer } from '../../shared/contacts/customers';
import type { Client } from './api';
import { direct } from '../../shared/data/unit';

export const CHANNELS = '/api/v1/channels';
export const BROADCASTS = '/api/v1/broadcasts';
export const CUSTOMERS = '/api/v1/contacts/customers';
export const CONVERSATIONS = '/api/v1/inbox/conversations';

let serial = 0;

/** A channel account created through the API: the account as returned once, with its signing secret. */
export const createChannel = async (api: Client, body: Record<string, unknown>) => {
  const res = await api.post(CHANNELS, { name: `channel ${++serial}`, ...body });
  if (res.status !== 201) throw new Error(`creating a channel failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.channel as { _id: string; signingSecret: string; [k: string]: unknown };
};

/** A customer and a conversation with it that replies through `channelId`. */
export const conversationOn = async (api: Client, channelId: string, customer: Record<string, unknown> = {}) => {
  const c = await api.post(CUSTOMERS, { name: `Customer ${++serial}`, email: `c${serial}-${Date.now()}@example.com`, ...customer });
  if (c.status !== 201) throw new Error(`creating a customer failed: ${c.status} ${JSON.stringify(c.body)}`);
  const conv = await api.post(CONVERSATIONS, { customerId: c.body.data.customer._id, channelId });
  if (conv.status !== 201) throw new Error(`creating a conversation failed: ${conv.status} ${JSON.stringify(conv.body)}`);
  return { customer: c.body.data.customer, conversation: conv.body.data.conversation };
};

/** POSTs `body` to the account's inbound route signed with `secret`, exactly as a provider would. */
export const postInbound = (api: Client, channelId: string, secret: string, body: unknown) => {
  const raw = JSON.stringify(body);
  return api.post(`${CHANNELS}/${channelId}/inbound`, raw, { 'x-parley-signature': signature(secret, raw) });
};

/** A message as its conversation lists it. */
export const messageIn = async (api: Client, conversationId: string, messageId: string) => {
  const res = await api.get(`${CONVERSATIONS}/${conversationId}/messages?limit=100`);
  return (res.body.data.messages as any[]).find((m) => m._id === messageId);
};

/** The raw stored channel item, as DynamoDB holds it (test-only). */
export const storedChannelItem = async (tenant: Tenant, id: string) =>
  (
    await dynamo().send(
      new GetCommand({ TableName: config().TABLE_NAME, Key: { pk: `WS#${tenant}`, sk: `CHANNEL#${id}` }, ConsistentRead: true }),
    )
  ).Item;

/** The sandbox provider's log entry for a send key (test-only). */
export const sandboxSend = async (tenant: Tenant, channelId: string, key: string) =>
  (
    await dynamo().send(
      new GetCommand({ TableName: config().TABLE_NAME, Key: { pk: `WS#${tenant}#SANDBOX#${channelId}`, sk: key }, ConsistentRead: true }),
    )
  ).Item;

/**
 * `count` customers of `tenant`, written through the customers repository in waves (one workspace counter
 * takes them all): an audience bigger than a token's write budget allows through the API.
 */
export const createCustomers = async (tenant: Tenant, count: number, wave = 20): Promise<string[]> => {
  const ids: string[] = [];
  for (let i = 0; i < count; i += wave) {
    const made = await Promise.all(
      Array.from({ length: Math.min(wave, count - i) }, () =>
        createCustomer(direct, tenant, { name: `Recipient ${++serial}` }, new Date()),
      ),
    );
    ids.push(...made.map((c) => c._id));
  }
  return ids;
};

/** Every sandbox send of a channel account (test-only). */
export const sandboxSends = async (tenant: Tenant, channelId: string): Promise<Record<string, unknown>[]> => {
  const items: Record<string, unknown>[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await dynamo().send(
      new QueryCommand({
        TableName: config().TABLE_NAME,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': `WS#${tenant}#SANDBOX#${channelId}` },
        ConsistentRead: true,
        ExclusiveStartKey,
      }),
    );
    items.push(...(page.Items ?? []));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return items;
};
