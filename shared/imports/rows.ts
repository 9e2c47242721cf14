import type { Tenant } from '../domain/auth/tenant';
import { AppError } from '../domain/errors';
import { Missing, Refused } from '../domain/refusal';
import { normalizeEmail } from '../domain/contacts/customer';
import type { IdProperty } from '../domain/contacts/batch';
import { customerRow, leadRow } from '../domain/imports/columns';
import { MAX_REPORTED_ROW_CHARS, type ImportJob } from '../domain/imports/import';
import { rowOutcome, rowOutcomeWrites, type RowFailure, type RowStatus } from '../data/imports';
import { customerIdBy } from '../data/customers';
import { retryOnConflict } from '../data/retry';
import { commit, runInUnit, type UnitOfWork } from '../data/transact';
import { upsertCustomer } from '../contacts/batch-upsert';
import { createLead } from '../crm/leads';
import { answerOf } from '../http/refusals';

/** One data record of the CSV: its index among the data records, the line it starts on, and its cells. */
export interface CsvRecord {
  record: number;
  line: number;
  cells: string[];
}

type Change = { status: 'created' | 'updated' | 'unchanged' } | { status: 'failed'; reason: string };

/** The ROW item of this record exists: a run before this one committed its change and outcome. */
class AlreadyApplied extends Error {}

/** A change refused (a rule of the service, a record that is gone) is the row's failure; anything else is the worker's. */
const refusalOf = (error: unknown): string | undefined => {
  const answer = error instanceof AppError ? error : answerOf(error);
  return answer?.message;
};

/** The row's cells as the errors CSV keeps them: cut past MAX_REPORTED_ROW_CHARS in all. */
const keptCells = (cells: string[]): string[] => {
  let left = MAX_REPORTED_ROW_CHARS;
  return cells.map((cell) => {
    const kept = cell.slice(0, Math.max(0, left));
    left -= cell.length;
    return kept;
  });
};

/** A row refused at commit (a unique value taken meanwhile) is tried again from its reads this many times. */
const ATTEMPTS = 3;

/**
 * Applies one record exactly once: its change (the service's own transaction, with its event) is held,
 * then committed in ONE transaction with the record's outcome item, which is created only if absent. A
 * record a crashed run already committed finds its outcome item and writes nothing: its outcome is read
 * back. `report` keeps a failed row's cells and reason for the errors CSV.
 */
const applyOnce = (
  tenant: Tenant,
  job: ImportJob,
  row: CsvRecord,
  report: boolean,
  change: () => Promise<Change>,
  attempt = 1,
): Promise<RowStatus> =>
  retryOnConflict(async () => {
    const unit: UnitOfWork = { mode: 'hold', marker: { item: {} }, afterCommit: [] };
    let outcome: Change;
    try {
      outcome = await runInUnit(unit, change);
    } catch (error) {
      const reason = refusalOf(error);
      if (reason === undefined) throw error;
      outcome = { status: 'failed', reason };
    }
    const failure: RowFailure | undefined =
      outcome.status === 'failed' && report ? { line: row.line, reason: outcome.reason, cells: keptCells(row.cells) } : undefined;
    const writes = [
      ...(outcome.status === 'failed' ? [] : (unit.held?.writes ?? [])),
      ...rowOutcomeWrites(tenant, job, row.record, outcome.status, () => new AlreadyApplied(), failure),
    ];
    try {
      await commit(writes, unit.held?.onConditionFailed);
    } catch (error) {
      if (error instanceof AlreadyApplied) return (await rowOutcome(tenant, job._id, row.record))!;
      if ((error instanceof Refused || error instanceof Missing) && attempt < ATTEMPTS) {
        return applyOnce(tenant, job, row, report, change, attempt + 1);
      }
      const reason = refusalOf(error);
      if (reason === undefined) throw error;
      return applyOnce(tenant, job, row, report, async () => ({ status: 'failed', reason }), attempt);
    }
    for (const fn of unit.afterCommit) await fn();
    return outcome.status;
  });

const GUARD_KIND = { email: 'EMAIL', phone: 'PHONE' } as const;

/** The key a customers row is matched by, as the upsert matches it (emails fold case). */
const customerKeyOf = (idProperty: IdProperty, value: string): string => (idProperty === 'email' ? normalizeEmail(value) : value);

const customerChange =
  (tenant: Tenant, job: ImportJob, fields: (string | null)[], row: CsvRecord, now: Date) => async (): Promise<Change> => {
    const parsed = customerRow(fields, row.cells);
    if ('reason' in parsed) return { status: 'failed', reason: parsed.reason };
    const idProperty = job.idProperty!;
    const value = parsed.input[idProperty];
    if (!value) return { status: 'failed', reason: `${idProperty}: Required: the import matches customers by ${idProperty}` };
    return { status: (await upsertCustomer(tenant, idProperty, customerKeyOf(idProperty, value), parsed.input, now)).status };
  };

const leadChange = (tenant: Tenant, job: ImportJob, fields: (string | null)[], row: CsvRecord, now: Date) => async (): Promise<Change> => {
  const parsed = leadRow(fields, row.cells);
  if ('reason' in parsed) return { status: 'failed', reason: parsed.reason };
  const { customerEmail, ...lead } = parsed.input;
  const customerId = customerEmail ? await customerIdBy(tenant, GUARD_KIND.email, normalizeEmail(customerEmail)) : undefined;
  if (customerEmail && !customerId) return { status: 'failed', reason: `customerEmail: No customer has the email ${customerEmail}` };
  await createLead(tenant, { ...lead, pipelineId: job.pipelineId!, ...(customerId ? { customerId } : {}) }, now);
  return { status: 'created' };
};

/** Applies one data record of the import (its columns laid out as `fields`) exactly once, and answers its outcome. */
export const applyRow = (tenant: Tenant, job: ImportJob, fields: (string | null)[], row: CsvRecord, report: boolean, now: Date) =>
  applyOnce(
    tenant,
    job,
    row,
    report,
    job.kind === 'customers' ? customerChange(tenant, job, fields, row, now) : leadChange(tenant, job, fields, row, now),
  );

/** The key rows of one chunk must be applied one after another by (two rows of one customer, in file order), if any. */
export const rowKey = (job: ImportJob, fields: (string | null)[], row: CsvRecord): string | undefined => {
  if (job.kind !== 'customers') return undefined;
  const cell = row.cells[fields.indexOf(job.idProperty!)];
  return cell ? customerKeyOf(job.idProperty!, cell.trim()) : undefined;
};
