import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Tenant } from '../domain/auth/tenant';
import { IMPORT_RETENTION_SECONDS, type ImportCounts, type ImportJob, type ImportStatus } from '../domain/imports/import';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import { importJob } from '../views/imports';
import { itemCodec } from './codec';
import { tenantPk } from './keys';
import { queryAll } from './query';
import { K } from './registry/registry';
import { createItem, updateItem, writeAlone, type Write } from './transact';

/**
 * Import jobs: pk=<tenant>#IMPORT#<id> sk=IMPORT holds the job, its `cursor` (data records applied, in file
 * order) and counts. Each record applied leaves ROW#<record> (its outcome, created in the same transaction
 * as the record's change, so a record is applied once however often a crash makes a worker read it), and a
 * failed record FAIL#<record> (its line, reason and cells, for the errors CSV). Everything lives 7 days.
 */
const partition = (tenant: Tenant, id: string) => tenantPk(tenant, K.IMPORT, id);
const importKey = (tenant: Tenant, id: string) => ({ pk: partition(tenant, id), sk: K.IMPORT });
/** Zero-padded so the sort keys run in file order (a 50 MiB CSV has far fewer than 10^9 records). */
const recordSk = (prefix: string, record: number) => `${prefix}#${String(record).padStart(9, '0')}`;

const fromItem = itemCodec(importJob);
const ttlOf = (job: Pick<ImportJob, 'createdAt'>) => Math.floor(Date.parse(job.createdAt) / 1000) + IMPORT_RETENTION_SECONDS;

export interface StoredImport {
  job: ImportJob;
  /** How many data records (in file order) have been applied and counted. */
  cursor: number;
  /** The CSV's header row, kept when the import starts (the errors CSV repeats it). */
  header: string[];
}

type StoredFields = Partial<ImportJob> & { header?: string[] };

export const createImport = async (tenant: Tenant, job: ImportJob): Promise<void> => {
  await writeAlone(createItem({ ...importKey(tenant, job._id), type: 'IMPORT', ...job, cursor: 0, ttl: ttlOf(job) }));
};

export const getImport = async (tenant: Tenant, id: string): Promise<StoredImport | undefined> => {
  const { Item } = await dynamo().send(
    new GetCommand({ TableName: config().TABLE_NAME, Key: importKey(tenant, id), ConsistentRead: true }),
  );
  return Item ? { job: fromItem(Item), cursor: Number(Item.cursor ?? 0), header: (Item.header as string[] | undefined) ?? [] } : undefined;
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
export const updateImport = async (tenant: Tenant, id: string, from: readonly ImportStatus[], fields: StoredFields) => {
  try {
    await writeAlone(importUpdate(tenant, id, from, fields));
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
export const advanceImport = async (tenant: Tenant, id: string, from: number, to: number, added: ImportCounts): Promise<boolean> => {
  try {
    await writeAlone(
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

export type RowStatus = 'created' | 'updated' | 'unchanged' | 'failed';
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
  const pk = partition(tenant, job._id);
  const ttl = ttlOf(job);
  return [
    createItem({ pk, sk: recordSk(K.ROW, record), type: 'IMPORT_ROW', status, ttl }, applied),
    ...(failure ? [createItem({ pk, sk: recordSk(K.FAIL, record), type: 'IMPORT_FAILURE', ...failure, ttl })] : []),
  ];
};

/** The outcome a record was committed with. */
export const rowOutcome = async (tenant: Tenant, id: string, record: number): Promise<RowStatus | undefined> => {
  const { Item } = await dynamo().send(
    new GetCommand({
      TableName: config().TABLE_NAME,
      Key: { pk: partition(tenant, id), sk: recordSk(K.ROW, record) },
      ConsistentRead: true,
    }),
  );
  return Item?.status as RowStatus | undefined;
};

/** The reported failed rows, in file order, with their record's index. */
export async function* rowFailures(tenant: Tenant, id: string): AsyncGenerator<RowFailure & { record: number }> {
  for await (const item of queryAll({ pk: partition(tenant, id), skPrefix: `${K.FAIL}#` })) {
    const record = Number(String(item.sk).slice(K.FAIL.length + 1));
    yield { record, line: Number(item.line), reason: String(item.reason), cells: item.cells as string[] };
  }
}

/** A reported failed row's cells emptied and its reason replaced by `reason`, once: false if it already was. */
export const failureScrub = (tenant: Tenant, id: string, record: number, reason: string): Write =>
  updateItem({ pk: partition(tenant, id), sk: recordSk(K.FAIL, record) }, 'SET #cells = :none, #reason = :reason', {
    condition: 'attribute_exists(#reason) AND #reason <> :reason',
    names: { '#cells': 'cells', '#reason': 'reason' },
    values: { ':none': [], ':reason': reason },
  });
