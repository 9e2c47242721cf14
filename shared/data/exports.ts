import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Tenant } from '../domain/auth/tenant';
import { EXPORT_RETENTION_SECONDS, type ExportJob } from '../domain/exports/export';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import { exportJob } from '../views/exports';
import { itemCodec } from './codec';
import { tenantPk } from './keys';
import { K } from './registry/registry';
import { createItem, updateItem, writeAlone } from './transact';

/**
 * Export jobs: pk=<tenant>#EXPORT#<id> sk=EXPORT, with a TTL 7 days after creation (as long as the CSV is
 * kept). Status moves queued → running → completed|failed by conditional writes.
 */
const exportKey = (tenant: Tenant, id: string) => ({ pk: tenantPk(tenant, K.EXPORT, id), sk: K.EXPORT });

const fromItem = itemCodec(exportJob);

export const createExport = async (tenant: Tenant, job: ExportJob): Promise<void> => {
  await writeAlone(
    createItem({
      ...exportKey(tenant, job._id),
      type: 'EXPORT',
      ...job,
      ttl: Math.floor(Date.parse(job.createdAt) / 1000) + EXPORT_RETENTION_SECONDS,
    }),
  );
};

export const getExport = async (tenant: Tenant, id: string): Promise<ExportJob | undefined> => {
  const { Item } = await dynamo().send(
    new GetCommand({ TableName: config().TABLE_NAME, Key: exportKey(tenant, id), ConsistentRead: true }),
  );
  return Item ? fromItem(Item) : undefined;
};

const isConditionFailure = (error: unknown) => (error as { name?: string }).name === 'ConditionalCheckFailedException';

type Settlement = { status: 'running' } | { status: 'completed'; rows: number; at: Date } | { status: 'failed'; error: string; at: Date };

const fieldsOf = (change: Settlement): Record<string, unknown> => {
  if (change.status === 'running') return { status: 'running' };
  const completedAt = change.at.toISOString();
  return change.status === 'completed'
    ? { status: 'completed', rows: change.rows, completedAt }
    : { status: 'failed', error: change.error, completedAt };
};

/** Moves an unfinished export to `running` or to its outcome; false when it had already finished. */
export const settleExport = async (tenant: Tenant, id: string, change: Settlement): Promise<boolean> => {
  const fields = Object.keys(fieldsOf(change));
  const values = fieldsOf(change);
  try {
    await writeAlone(
      updateItem(exportKey(tenant, id), `SET ${fields.map((k) => `#${k} = :${k}`).join(', ')}`, {
        condition: '#status IN (:queued, :running)',
        names: Object.fromEntries(fields.map((k) => [`#${k}`, k])),
        values: { ...Object.fromEntries(fields.map((k) => [`:${k}`, values[k]])), ':queued': 'queued', ':running': 'running' },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
};
