import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import type { Tenant } from '../domain/auth/tenant';
import { notificationSecret } from './registry/workflows';
import { createItem, type Write } from './transact';

/** The workspace's notification secret: on_error `notify` signs with it. */
export const readNotificationSecret = async (tenant: Tenant): Promise<string | undefined> => {
  const { Item } = await dynamo().send(
    new GetCommand({ TableName: config().TABLE_NAME, Key: notificationSecret.key({ tenant }), ConsistentRead: true }),
  );
  return Item && notificationSecret.parse(Item).secret;
};

/** Stores the workspace's first notification secret; `onTaken` when one was stored first. */
export const notificationSecretCreation = (tenant: Tenant, secret: string, onTaken: () => Error): Write =>
  createItem({ ...notificationSecret.key({ tenant }), type: 'WF_NOTIFY_SECRET', secret }, onTaken);
