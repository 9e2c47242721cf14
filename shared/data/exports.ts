import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Tenant } from '../domain/auth/tenant';
import { EXPORT_RETENTION_SECONDS, type ExportJob } from '../domain/exports/export';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import { exportJob } from './registry/exports';
import { createItem, updateItem, type Write } from './transact';
import type { Unit } from './unit';

/**
 * Export jobs (keys: registry/exports.ts), with a TTL 7 days after creation (as long as the CSV is kept).
 * Status moves queued → running → completed|failed by conditional writes.
 */

export const createExport = async (unit: Unit, tenant: Tenant, job: ExportJob): Promise<void> => {
  await unit.writeAlone(
    createItem({
      ...exportJob.key({ tenant, id: job._id }),
      type: 'EXPORT',
      ...job,
      ttl: Math.floor(Date.parse(job.createdAt) / 1000) + EXPORT_RETENTION_SECONDS,
    }),
  );
};

export const getExport = async (tenant: Tenant, id: string): Promise<ExportJob | undefined> => {
  const { Item } = await dynamo().send(
    new GetCommand({ TableName: config().TABLE_NAME, Key: exportJob.key({ tenant, id }), ConsistentRead: true }),
  );
  return Item ? exportJob.parse(Item) : undefined;
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
export const settleExport = async (unit: Unit, tenant: Tenant, id: string, change: Settlement): Promise<boolean> => {
  const fields = Object.keys(fieldsOf(change));
  const values = fieldsOf(change);
  try {
    await unit.writeAlone(
      updateItem(exportJob.key({ tenant, id }), `SET ${fields.map((k) => `#${k} = :${k}`).join(', ')}`, {
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

/** A completed export's CSV lost `removed` rows (an erasure rewrote it): its `rows` stays the CSV's count. */
export const exportRowsRemoved = (tenant: Tenant, id: string, removed: number): Write =>
  updateItem(exportJob.key({ tenant, id }), 'SET #rows = #rows - :removed', {
    condition: '#status = :completed',
    names: { '#rows': 'rows', '#status': 'status' },
    values: { ':removed': removed, ':completed': 'completed' },
  });
