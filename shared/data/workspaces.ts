import { liveTenant } from '../domain/auth/tenant';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import { objectId } from '../ids';
import {
  DEFAULT_LOCALE,
  DEFAULT_STORAGE_QUOTA_BYTES,
  DEFAULT_TIMEZONE,
  defaultBusinessHours,
  defaultRetention,
  type Workspace,
} from '../domain/auth/workspace';
import { batchGet } from './batch-get';
import { collect, queryAll } from './query';
import { createItem, updateItem, type Write } from './transact';
import type { Unit } from './unit';
import { workspace as workspaceEntity } from './registry/workspace';

export { DEFAULT_TIMEZONE } from '../domain/auth/workspace';

/** The workspace item, shared by both modes (its live tenant's partition); an update is conditional on the `updatedAt` read. */
const key = (id: string) => workspaceEntity.key({ tenant: liveTenant(id) });

const toItem = (w: Workspace) => ({ ...key(w._id), type: 'WORKSPACE', ...workspaceEntity.index('gsi1', { workspaceId: w._id }), ...w });

const fromItem = (item: Record<string, unknown>): Workspace => workspaceEntity.parse(item);

export const createWorkspace = async (unit: Unit, name: string, now = new Date()): Promise<Workspace> => {
  const workspace: Workspace = {
    _id: objectId(now.getTime()),
    name,
    timezone: DEFAULT_TIMEZONE,
    locale: DEFAULT_LOCALE,
    businessHours: defaultBusinessHours(),
    storageQuotaBytes: DEFAULT_STORAGE_QUOTA_BYTES,
    retention: defaultRetention(),
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };
  await unit.commit([createItem(toItem(workspace))]);
  return workspace;
};

const getStored = async (id: string): Promise<Workspace | undefined> => {
  const { Item } = await dynamo().send(new GetCommand({ TableName: config().TABLE_NAME, Key: key(id), ConsistentRead: true }));
  return Item ? fromItem(Item) : undefined;
};

export const getWorkspace = (id: string): Promise<Workspace | undefined> => getStored(id);

/** The workspace's key and parser, for reading it in one BatchGetItem with other items. */
export const workspaceRead = (id: string) => ({
  key: key(id),
  parse: (item: Record<string, unknown> | undefined): Workspace | undefined => (item ? fromItem(item) : undefined),
});

export const getWorkspaces = async (ids: readonly string[]): Promise<Workspace[]> =>
  (await batchGet(ids.map(key), { consistent: false })).map(fromItem);

export const listWorkspaces = async (): Promise<Workspace[]> =>
  (await collect(queryAll({ index: 'gsi1', pk: workspaceEntity.build('gsi1pk', {}) }))).map(fromItem);

/** A workspace that keeps closed conversations for a while is in the sweep's sparse index; one that keeps them forever is not. */
const retentionIndex = (w: Workspace) => workspaceEntity.index('gsi2', { workspaceId: w._id });

/** The workspaces that set a retention, for the sweep: a Query of the sparse index, never a Scan. */
export const listRetainingWorkspaces = async (): Promise<Workspace[]> =>
  (await collect(queryAll({ index: 'gsi2', pk: workspaceEntity.build('gsi2pk', {}) }))).map(fromItem);

/** Stores `after`'s settings over the workspace as read (guarded by its `updatedAt`), its retention index following its retention. */
export const workspaceSettingsUpdate = (before: Workspace, after: Workspace): Write => {
  const retained = after.retention.closedConversationDays !== null;
  const index = retentionIndex(after);
  return updateItem(
    key(before._id),
    `SET #n = :n, #tz = :tz, #l = :l, businessHours = :bh, storageQuotaBytes = :q, retention = :r, updatedAt = :u${
      retained ? ', gsi2pk = :ipk, gsi2sk = :isk' : ''
    }${retained ? '' : ' REMOVE gsi2pk, gsi2sk'}`,
    {
      names: { '#n': 'name', '#tz': 'timezone', '#l': 'locale' },
      values: {
        ...(retained ? { ':ipk': index.gsi2pk, ':isk': index.gsi2sk } : {}),
        ':r': after.retention,
        ':n': after.name,
        ':tz': after.timezone,
        ':l': after.locale,
        ':bh': after.businessHours,
        ':q': after.storageQuotaBytes,
        ':u': after.updatedAt,
        ':prev': before.updatedAt,
      },
      condition: 'updatedAt = :prev',
    },
  );
};
