import type { Tenant } from '../domain/auth/tenant';
import { layoutOf } from '../domain/imports/columns';
import {
  IMPORT_CHUNK_ROWS,
  importObjectKey,
  MAX_REPORTED_FAILURES,
  zeroCounts,
  type ImportCounts,
  type ImportJob,
} from '../domain/imports/import';
import { ACK, type Verdict } from '../domain/verdict';
import { buildEnvelope } from '../events/envelope';
import { readObject } from '../aws/s3';
import { advanceImport, getImport, importUpdate, type RowStatus } from '../data/imports';
import { outboxItem } from '../data/outbox';
import type { Unit } from '../data/unit';
import { log } from '../log';
import { enqueueBulkJob, type ImportMessage } from '../bulk/queue';
import { csvRecords, UnreadableCsv, type ParsedRecord } from './csv';
import { applyRows, type CsvRecord } from './rows';

/**
 * A worker stops starting chunks after this long and queues the rest of the import as a new message, well
 * inside the function's 5 minutes: no import is bounded by one invocation.
 */
const SLICE_MS = 4 * 60_000;

const EVENT_TYPES = {
  customers: { started: 'customer.import.started', finished: 'customer.import.finished' },
  leads: { started: 'crm.import.started', finished: 'crm.import.finished' },
} as const;

const importEvent = (tenant: Tenant, job: ImportJob, step: 'started' | 'finished', now: Date) =>
  outboxItem(buildEnvelope(EVENT_TYPES[job.kind][step], tenant, { import: job }, { now }));

const isConditionFailure = (error: unknown) =>
  (error as { name?: string }).name === 'TransactionCanceledException' &&
  ((error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? []).some((r) => r.Code === 'ConditionalCheckFailed');

/** Queued → running with its `started` event and the header, in one transaction; false when another worker moved it first. */
const start = async (unit: Unit, tenant: Tenant, job: ImportJob, header: string[], now: Date): Promise<ImportJob | undefined> => {
  const running: ImportJob = { ...job, status: 'running', startedAt: now.toISOString() };
  try {
    await unit.commit([
      importUpdate(tenant, job._id, ['queued'], { status: 'running', startedAt: running.startedAt, header }),
      importEvent(tenant, running, 'started', now),
    ]);
    return running;
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
};

/** Running → completed or failed, with its `finished` event, in one transaction (once: the condition is `running`). */
const finish = async (unit: Unit, tenant: Tenant, job: ImportJob, error: string | null, now: Date): Promise<void> => {
  const done: ImportJob = { ...job, status: error ? 'failed' : 'completed', error, completedAt: now.toISOString() };
  try {
    await unit.commit([
      importUpdate(tenant, job._id, ['running'], { status: done.status, error, completedAt: done.completedAt }),
      importEvent(tenant, done, 'finished', now),
    ]);
    log.info('import finished', { importId: job._id, status: done.status, counts: job.counts, error });
  } catch (failure) {
    if (!isConditionFailure(failure)) throw failure;
  }
};

const add = (counts: ImportCounts, statuses: RowStatus[]): ImportCounts => {
  const out = { ...counts, rows: counts.rows + statuses.length };
  for (const s of statuses) out[s] += 1;
  return out;
};

/**
 * Applies one chunk (see `applyRows`). A failed row keeps its cells for the errors CSV while fewer than
 * MAX_REPORTED_FAILURES failures were counted before the chunk.
 */
const applyChunk = (tenant: Tenant, job: ImportJob, fields: (string | null)[], rows: CsvRecord[], now: Date) =>
  applyRows(tenant, job, fields, rows, job.counts.failed < MAX_REPORTED_FAILURES, now);

type Slice = { done: true; error: string | null } | { done: false };

/**
 * Reads the CSV from its start (a stream, never whole), skips the records the cursor says are applied, and
 * applies the rest chunk by chunk, advancing the cursor with each chunk's counts. Every record's change is
 * committed with its own outcome item, so a crash anywhere makes the next run redo nothing: records past the
 * cursor that were applied are found applied and counted from their outcome.
 */
const runSlice = async (unit: Unit, tenant: Tenant, initial: ImportJob, cursor: number, now: () => Date): Promise<Slice> => {
  let job = initial;
  let position = cursor;
  const deadline = now().getTime() + SLICE_MS;
  const records = csvRecords(await readObject(importObjectKey(tenant, job._id)));
  const header = await records.next();
  if (header.done) return { done: true, error: 'The CSV is empty: a header row is required' };
  const layout = layoutOf(job.kind, header.value.cells, job.columns, job.kind === 'customers' ? job.idProperty! : 'title');
  if ('error' in layout) return { done: true, error: layout.error };
  if (job.status === 'queued') {
    const started = await start(unit, tenant, job, header.value.cells, now());
    if (!started) return { done: false };
    job = started;
  }
  let index = 0;
  let chunk: CsvRecord[] = [];
  const flush = async (): Promise<boolean> => {
    const statuses = await applyChunk(tenant, job, layout.fields, chunk, now());
    const to = position + chunk.length;
    const counts = add(zeroCounts(), statuses);
    if (!(await advanceImport(unit, tenant, job._id, position, to, counts))) return false;
    job = { ...job, counts: add(job.counts, statuses) };
    position = to;
    chunk = [];
    return true;
  };
  for await (const { line, cells } of records as AsyncIterable<ParsedRecord>) {
    const record = index++;
    if (record < position) continue;
    chunk.push({ record, line, cells });
    if (chunk.length < IMPORT_CHUNK_ROWS) continue;
    if (!(await flush())) return { done: false };
    if (now().getTime() > deadline) {
      await enqueueBulkJob(unit, { tenant, kind: 'import', importId: job._id });
      return { done: false };
    }
  }
  if (chunk.length && !(await flush())) return { done: false };
  return { done: true, error: null };
};

/**
 * The bulk worker's import job. A queued import starts (its `started` event); a running one resumes at its
 * cursor; a finished one is acknowledged and nothing more. A CSV that cannot be read on (empty, no usable
 * header, not UTF-8, malformed) fails the import with the reason; the rows before a malformed line stay
 * applied and counted.
 */
export const runImport = async (unit: Unit, { tenant, importId }: ImportMessage, now: () => Date): Promise<Verdict> => {
  const stored = await getImport(tenant, importId);
  if (!stored || (stored.job.status !== 'queued' && stored.job.status !== 'running')) return ACK;
  let slice: Slice;
  try {
    slice = await runSlice(unit, tenant, stored.job, stored.cursor, now);
  } catch (error) {
    if (!(error instanceof UnreadableCsv)) throw error;
    slice = { done: true, error: error.message };
  }
  if (!slice.done) return ACK;
  const latest = await getImport(tenant, importId);
  if (!latest) return ACK;
  // A CSV refused before any row never ran: it starts and finishes at once, so both events still go out.
  const job = latest.job.status === 'queued' ? await start(unit, tenant, latest.job, [], now()) : latest.job;
  if (job) await finish(unit, tenant, job, slice.error, now());
  return ACK;
};
