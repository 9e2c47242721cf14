import { tenantOf } from '../domain/auth/tenant';
import { Missing } from '../domain/refusal';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import { objectId } from '../ids';
import { buildEnvelope, diff } from '../events/envelope';
import { outboxItem } from './outbox';
import {
  DEFAULT_LOCALE,
  DEFAULT_STORAGE_QUOTA_BYTES,
  DEFAULT_TIMEZONE,
  defaultBusinessHours,
  patchWorkspace,
  type Workspace,
  type WorkspacePatch,
} from '../domain/auth/workspace';
import { batchGet } from './batch-get';
import { collect, queryAll } from './query';
import { tenantPk } from './keys';
import { lostRace, retryOnConflict } from './retry';
import { createItem, transact, updateItem } from './transact';
import { K } from './registry/registry';

export { DEFAULT_TIMEZONE } from '../domain/auth/workspace';

/** The workspace item, shared by both modes: pk=<workspace id> sk=WORKSPACE; an update is conditional on the `updatedAt` read. */
const key = (id: string) => ({ pk: tenantPk(tenantOf(id, 'live')), sk: K.WORKSPACE });

const toItem = (w: Workspace) => ({ ...key(w._id), type: 'WORKSPACE', gsi1pk: K.WORKSPACES, gsi1sk: w._id, ...w });

/** Items written before a setting existed read as its default. */
const fromItem = (item: Record<string, unknown>): Workspace => {
  const w = item as Partial<Workspace> & Pick<Workspace, '_id' | 'name' | 'createdAt' | 'updatedAt'>;
  return {
    _id: w._id,
    name: w.name,
    timezone: w.timezone ?? DEFAULT_TIMEZONE,
    locale: w.locale ?? DEFAULT_LOCALE,
    businessHours: w.businessHours ?? defaultBusinessHours(),
    storageQuotaBytes: w.storageQuotaBytes ?? DEFAULT_STORAGE_QUOTA_BYTES,
    createdAt: w.createdAt,
    updatedAt: w.updatedAt,
  };
};

export const createWorkspace = async (name: string, now = new Date()): Promise<Workspace> => {
  const workspace: Workspace = {
    _id: objectId(now.getTime()),
    name,
    timezone: DEFAULT_TIMEZONE,
    locale: DEFAULT_LOCALE,
    businessHours: defaultBusinessHours(),
    storageQuotaBytes: DEFAULT_STORAGE_QUOTA_BYTES,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };
  await transact([createItem(toItem(workspace))]);
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
  (await collect(queryAll({ index: 'gsi1', pk: K.WORKSPACES }))).map(fromItem);

const SETTINGS = ['name', 'timezone', 'locale', 'businessHours', 'storageQuotaBytes'] as const;

/**
 * Changes the workspace's settings under the version read, with `auth.workspace.updated` (live, with
 * `changes`) in the same transaction. A patch that changes nothing is a no-op: no write, no event.
 */
export const updateWorkspace = (id: string, patch: WorkspacePatch, now = new Date()): Promise<Workspace> =>
  retryOnConflict(async () => {
    const before = await getStored(id);
    if (!before) throw new Missing('Workspace');
    const after = patchWorkspace(before, patch, now);
    const pick = (w: Workspace) => Object.fromEntries(SETTINGS.map((f) => [f, w[f]]));
    const changes = diff(pick(before), pick(after));
    if (!changes || Object.keys(changes).length === 0) return before;
    const event = buildEnvelope('auth.workspace.updated', tenantOf(id, 'live'), { workspace: after }, { changes, now });
    await transact(
      [
        updateItem(key(id), 'SET #n = :n, #tz = :tz, #l = :l, businessHours = :bh, storageQuotaBytes = :q, updatedAt = :u', {
          names: { '#n': 'name', '#tz': 'timezone', '#l': 'locale' },
          values: {
            ':n': after.name,
            ':tz': after.timezone,
            ':l': after.locale,
            ':bh': after.businessHours,
            ':q': after.storageQuotaBytes,
            ':u': after.updatedAt,
            ':prev': before.updatedAt,
          },
          condition: 'updatedAt = :prev',
        }),
        outboxItem(event),
      ],
      lostRace,
    );
    return after;
  });

export const renameWorkspace = (id: string, name: string, now = new Date()): Promise<Workspace> => updateWorkspace(id, { name }, now);
