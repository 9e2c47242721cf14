import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import type { Tenant } from '../domain/auth/tenant';
import { generateSecret } from '../domain/webhooks/subscription';
import { tenantPk } from './keys';
import { createItem, transact } from './transact';
import { K } from './registry/registry';

/** The workspace's notification secret (pk=<tenant> sk=WFNOTIFY): on_error `notify` signs with it. Made on first use. */
const key = (tenant: Tenant) => ({ pk: tenantPk(tenant), sk: K.WFNOTIFY });

const read = async (tenant: Tenant): Promise<string | undefined> =>
  (await dynamo().send(new GetCommand({ TableName: config().TABLE_NAME, Key: key(tenant), ConsistentRead: true }))).Item?.secret as
    | string
    | undefined;

export const notificationSecret = async (tenant: Tenant): Promise<string> => {
  const existing = await read(tenant);
  if (existing) return existing;
  try {
    await transact([createItem({ ...key(tenant), type: 'WF_NOTIFY_SECRET', secret: generateSecret() })]);
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException) && (error as Error).name !== 'TransactionCanceledException') throw error;
  }
  return (await read(tenant))!;
};
