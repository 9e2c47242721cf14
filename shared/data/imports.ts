import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Tenant } from '../domain/auth/tenant';
import { IMPORT_RETENTION_SECONDS, type ImportCounts, type ImportJob, type ImportStatus } from '../domain/imports/import';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import { queryAll } from './query';
import { importFailure, importJob, importRow } from './registry/imports';
import { createItem, updateItem, type Write } from './transact';
import type { Unit } from './unit';

/** Import jobs, their row outcomes and failed rows (keys, and how they hold together: registry/imports.ts). */
const importKey = (tenant: Tenant, id: string) => importJob.key({ tenant, id });
/** Zero-padded so the sort keys run in file order (a 50 MiB CSV has far fewer than 10^9 records). */
const recordArgs = (tenant: Tenant, id: string, record: number) => ({ tenant, id, record: String(record).padStart(9, '0') });
const rowKey = (tenant: Tenant, id: string, record: number) => importRow.key(recordArgs(tenant, id, record));
const failureKey = (tenant: Tenant, id: string, record: number) => importFailure.key(recordArgs(tenant, id, record));

const ttlOf = (job: Pick<ImportJob, 'createdAt'>) => Math.floor(Date.parse(job.createdAt) / 1000) + IMPORT_RETENTION_SECONDS;

export interface StoredImport {
  job: ImportJob;
  /** How many data records (in file order) have been applied and counted. */
  cursor: number;
  /** The CSV's header row, kept when the import starts (the errors CSV repeats it). */
  header: string[];
}

type StoredFields = Partial<ImportJob> & { header?: string[] };

export const createImport = async (unit: Unit, tenant: Tenant, job: ImportJob): Promise<void> => {
  await unit.writeAlone(createItem({ ...importKey(tenant, job._id), type: 'IMPORT', ...job, cursor: 0, ttl: ttlOf(job) }));
};

export const getImport = async (tenant: Tenant, id: string): Promise<StoredImport | undefined> => {
  const { Item } = await dynamo().send(
    new GetCommand({ TableName: config().TABLE_NAME, Key: importKey(tenant, id), ConsistentRead: true }),
  );
  if (!Item) return undefined;
  const { cursor, header, ...job } = importJob.parse(Item);
  return { job, cursor, header };
};

const isConditionFailure = (error: unknown) => (error as { name?: string }).name === 'ConditionalCheckFailedException';

/** Sets `fields` on an import whose status is one of `from` (the write fails otherwise). */
export const importUpdate = (tenant: Tenant, id: string, from: readonly ImportStatus[], fields: StoredFields): Write => {
  const names = Object.keys(fields);
  return updateItem(importKey(tenant, id), `SET ${names.map((k) => `#${k} = :${k}`).join(', ')}`, {
    condition: `#status IN (${from.map((_, i) => `:from${i}`).join(', ')})`,
    names: { ...Object.fromEntries(names.map((k) => [`#${k}`, k])), '#status': 'status' },
    values: {
      ...Object.fromEntries(names.map((k) => [`:${k}`, fields[k as keyof StoredFields]])),
      ...Object.fromEntries(from.map((s, i) => [`:from${i}`, s])),
    },
  });
};

/** `importUpdate` alone; false when the import was not in one of `from`. */
export const updateImport = async (unit: Unit, tenant: Tenant, id: string, from: readonly ImportStatus[], fields: StoredFields) => {
  try {
    await unit.writeAlone(importUpdate(tenant, id, from, fields));
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
};

const COUNTS = ['rows', 'created', 'updated', 'unchanged', 'failed'] as const;

/**
 * Moves a running import's cursor from `from` to `to` and adds the records' counts, only when the cursor
 * still stands at `from`: a worker that lost the import to another (a redelivery while it was slow) adds
 * nothing twice. False when the cursor had moved.
 */
export const advanceImport = async (
  unit: Unit,
  tenant: Tenant,
  id: string,
  from: number,
  to: number,
  added: ImportCounts,
): Promise<boolean> => {
  try {
    await unit.writeAlone(
      updateItem(importKey(tenant, id), `SET #cursor = :to, ${COUNTS.map((c) => `#counts.#${c} = #counts.#${c} + :${c}`).join(', ')}`, {
        condition: '#cursor = :from AND #status = :running',
        names: { '#cursor': 'cursor', '#status': 'status', '#counts': 'counts', ...Object.fromEntries(COUNTS.map((c) => [`#${c}`, c])) },
        values: { ':from': from, ':to': to, ':running': 'running', ...Object.fromEntries(COUNTS.map((c) => [`:${c}`, added[c]])) },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
};

export type RowStatus = ReturnType<typeof importRow.parse>['status'];
export interface RowFailure {
  line: number;
  reason: string;
  cells: string[];
}

/**
 * The items recording a record's outcome: ROW#<record>, created only if absent (`applied` is raised when a
 * run before this one already committed it), and for a reported failure FAIL#<record>.
 */
export const rowOutcomeWrites = (
  tenant: Tenant,
  job: ImportJob,
  record: number,
  status: RowStatus,
  applied: () => Error,
  failure?: RowFailure,
): Write[] => {
  const ttl = ttlOf(job);
  return [
    createItem({ ...rowKey(tenant, job._id, record), type: 'IMPORT_ROW', status, ttl }, applied),
    ...(failure ? [createItem({ ...failureKey(tenant, job._id, record), type: 'IMPORT_FAILURE', ...failure, ttl })] : []),
  ];
};

/** The outcome a record was committed with. */
export const rowOutcome = async (tenant: Tenant, id: string, record: number): Promise<RowStatus | undefined> => {
  const { Item } = await dynamo().send(
    new GetCommand({
      TableName: config().TABLE_NAME,
      Key: rowKey(tenant, id, record),
      ConsistentRead: true,
    }),
  );
  return Item && importRow.parse(Item).status;
};

/** The reported failed rows, in file order, with their record's index. */
export async function* rowFailures(tenant: Tenant, id: string): AsyncGenerator<RowFailure & { record: number }> {
  const pk = importKey(tenant, id).pk;
  for await (const item of queryAll({ pk, skPrefix: importFailure.prefix('sk', {}) })) {
    yield { record: Number(importFailure.read('sk', item.sk).record), ...importFailure.parse(item) };
  }
}

/** A reported failed row's cells emptied and its reason replaced by `reason`, once: false if it already was. */
export const failureScrub = (tenant: Tenant, id: string, record: number, reason: string): Write =>
  updateItem(failureKey(tenant, id, record), 'SET #cells = :none, #reason = :reason', {
    condition: 'attribute_exists(#reason) AND #reason <> :reason',
    names: { '#cells': 'cells', '#reason': 'reason' },
    values: { ':none': [], ':reason': reason },
  });
