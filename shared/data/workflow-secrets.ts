import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import type { Tenant } from '../domain/auth/tenant';
import { tenantPk } from './keys';
import { createItem, type Write } from './transact';
import { K } from './registry/registry';

/** The workspace's notification secret (pk=<tenant> sk=WFNOTIFY): on_error `notify` signs with it. */
const key = (tenant: Tenant) => ({ pk: tenantPk(tenant), sk: K.WFNOTIFY });

export const readNotificationSecret = async (tenant: Tenant): Promise<string | undefined> =>
  (await dynamo().send(new GetCommand({ TableName: config().TABLE_NAME, Key: key(tenant), ConsistentRead: true }))).Item?.secret as
    | string
    | undefined;

/** Stores the workspace's first notification secret; `onTaken` when one was stored first. */
export const notificationSecretCreation = (tenant: Tenant, secret: string, onTaken: () => Error): Write =>
  createItem({ ...key(tenant), type: 'WF_NOTIFY_SECRET', secret }, onTaken);
