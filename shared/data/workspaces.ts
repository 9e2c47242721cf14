import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import { objectId } from '../ids';
import { buildEnvelope, diff } from '../events/envelope';
import { outboxItem } from './outbox';
import { NotFoundError } from '../domain/errors';
import type { Workspace } from '../domain/auth/workspace';
import { batchGet } from './batch-get';
import { collect, queryAll } from './query';
import { tenantPk } from './keys';
import { createItem, transact, updateItem } from './transact';

export const DEFAULT_TIMEZONE = 'UTC';

const key = (id: string) => ({ pk: tenantPk(id), sk: 'WORKSPACE' });

const toItem = (w: Workspace) => ({ ...key(w._id), type: 'WORKSPACE', gsi1pk: 'WORKSPACES', gsi1sk: w._id, ...w });

const fromItem = (item: Record<string, unknown>): Workspace => {
  const { _id, name, timezone, createdAt, updatedAt } = item as Partial<Workspace> & Pick<Workspace, '_id' | 'name' | 'createdAt' | 'updatedAt'>;
  return { _id, name, timezone: timezone ?? DEFAULT_TIMEZONE, createdAt, updatedAt };
};

export const createWorkspace = async (name: string, now = new Date()): Promise<Workspace> => {
  const workspace = { _id: objectId(now.getTime()), name, timezone: DEFAULT_TIMEZONE, createdAt: now.toISOString(), updatedAt: now.toISOString() };
  await transact([createItem(toItem(workspace))]);
  return workspace;
};

export const getWorkspace = async (id: string): Promise<Workspace | undefined> => {
  const { Item } = await dynamo().send(new GetCommand({ TableName: config().TABLE_NAME, Key: key(id) }));
  return Item ? fromItem(Item) : undefined;
};

export const getWorkspaces = async (ids: readonly string[]): Promise<Workspace[]> =>
  (await batchGet(ids.map(key), { consistent: false })).map(fromItem);

export const listWorkspaces = async (): Promise<Workspace[]> =>
  (await collect(queryAll({ index: 'gsi1', pk: 'WORKSPACES' }))).map(fromItem);

export const renameWorkspace = async (id: string, name: string, now = new Date()): Promise<Workspace> => {
  const before = await getWorkspace(id);
  if (!before) throw new NotFoundError('Workspace');
  const after = { ...before, name, updatedAt: now.toISOString() };
  const event = buildEnvelope('auth.workspace.updated', id, { workspace: after }, { changes: diff(before, { name }), now });
  await transact([
    updateItem(key(id), 'SET #n = :n, updatedAt = :u', {
      names: { '#n': 'name' },
      values: { ':n': name, ':u': after.updatedAt },
      condition: 'attribute_exists(pk)',
    }),
    outboxItem(event),
  ]);
  return after;
};
