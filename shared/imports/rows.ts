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
import type { Write } from '../data/transact';
import { direct, holdingUnit, type HoldingUnit, type Unit } from '../data/unit';
import { packWrites } from '../data/write-packing';
import { mapLimit } from '../domain/map-limit';
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

/** A record's change as decided on what it read, held (not written), and the outcome it would have. */
interface Prepared {
  row: CsvRecord;
  outcome: Change;
  unit: HoldingUnit;
}

/** Runs the record's change in a held unit of work: its reads are made, its one transaction held. */
const prepare = async (row: CsvRecord, change: (unit: Unit) => Promise<Change>): Promise<Prepared> => {
  const unit = holdingUnit();
  try {
    return { row, outcome: await change(unit), unit };
  } catch (error) {
    const reason = refusalOf(error);
    if (reason === undefined) throw error;
    return { row, outcome: { status: 'failed', reason }, unit };
  }
};

/** The record's held change (none for a failed row) and its outcome items, which make it once. */
const writesOf = (tenant: Tenant, job: ImportJob, { row, outcome, unit }: Prepared, report: boolean): Write[] => {
  const failure: RowFailure | undefined =
    outcome.status === 'failed' && report ? { line: row.line, reason: outcome.reason, cells: keptCells(row.cells) } : undefined;
  return [
    ...(outcome.status === 'failed' ? [] : (unit.held()?.writes ?? [])),
    ...rowOutcomeWrites(tenant, job, row.record, outcome.status, () => new AlreadyApplied(), failure),
  ];
};

const settled = async ({ outcome, unit }: Prepared): Promise<RowStatus> => {
  await unit.settle();
  return outcome.status;
};

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
  change: (unit: Unit) => Promise<Change>,
  attempt = 1,
): Promise<RowStatus> =>
  retryOnConflict(async () => {
    const prepared = await prepare(row, change);
    try {
      await direct.commit(writesOf(tenant, job, prepared, report), prepared.unit.held()?.onConditionFailed);
    } catch (error) {
      if (error instanceof AlreadyApplied) return (await rowOutcome(tenant, job._id, row.record))!;
      if ((error instanceof Refused || error instanceof Missing) && attempt < ATTEMPTS) {
        return applyOnce(tenant, job, row, report, change, attempt + 1);
      }
      const reason = refusalOf(error);
      if (reason === undefined) throw error;
      return applyOnce(tenant, job, row, report, async () => ({ status: 'failed', reason }), attempt);
    }
    return settled(prepared);
  });

/** The key a customers row is matched by, as the upsert matches it (emails fold case). */
const customerKeyOf = (idProperty: IdProperty, value: string): string => (idProperty === 'email' ? normalizeEmail(value) : value);

const customerChange =
  (tenant: Tenant, job: ImportJob, fields: (string | null)[], row: CsvRecord, now: Date) =>
  async (unit: Unit): Promise<Change> => {
    const parsed = customerRow(fields, row.cells);
    if ('reason' in parsed) return { status: 'failed', reason: parsed.reason };
    const idProperty = job.idProperty!;
    const value = parsed.input[idProperty];
    if (!value) return { status: 'failed', reason: `${idProperty}: Required: the import matches customers by ${idProperty}` };
    return { status: (await upsertCustomer(unit, tenant, idProperty, customerKeyOf(idProperty, value), parsed.input, now)).status };
  };

const leadChange =
  (tenant: Tenant, job: ImportJob, fields: (string | null)[], row: CsvRecord, now: Date) =>
  async (unit: Unit): Promise<Change> => {
    const parsed = leadRow(fields, row.cells);
    if ('reason' in parsed) return { status: 'failed', reason: parsed.reason };
    const { customerEmail, ...lead } = parsed.input;
    const customerId = customerEmail ? await customerIdBy(tenant, { kind: 'EMAIL', value: normalizeEmail(customerEmail) }) : undefined;
    if (customerEmail && !customerId) return { status: 'failed', reason: `customerEmail: No customer has the email ${customerEmail}` };
    await createLead(unit, tenant, { ...lead, pipelineId: job.pipelineId!, ...(customerId ? { customerId } : {}) }, now);
    return { status: 'created' };
  };

const changeOf = (tenant: Tenant, job: ImportJob, fields: (string | null)[], row: CsvRecord, now: Date) =>
  job.kind === 'customers' ? customerChange(tenant, job, fields, row, now) : leadChange(tenant, job, fields, row, now);

/** The key rows of one chunk must be applied one after another by (two rows of one customer, in file order), if any. */
const rowKey = (job: ImportJob, fields: (string | null)[], row: CsvRecord): string | undefined => {
  if (job.kind !== 'customers') return undefined;
  const cell = row.cells[fields.indexOf(job.idProperty!)];
  return cell ? customerKeyOf(job.idProperty!, cell.trim()) : undefined;
};

/** Rows whose changes are decided at once (their reads in flight together). */
const READ_CONCURRENCY = 10;
/** Rows of one customer, or rows whose packed transaction was refused, applied alone this many at once. */
const CONCURRENCY = 5;

/**
 * Applies a chunk of records, each exactly once, and answers their outcomes in file order. Each record whose
 * customer no other record of the chunk names is decided on its own reads, held, and the held changes are
 * packed, with each record's outcome item, into as few transactions as fit (`packWrites`: one bump of the
 * customers total for the lot): a transaction commits whole records or none. A transaction refused for any
 * reason (an outcome item already there after a crash, a value taken meanwhile, a conflict) wrote nothing,
 * and its records are applied one by one as a lone record is, which reads again and settles each. Records of
 * a customer named twice or more in the chunk are applied one after another in file order, alone.
 */
export const applyRows = async (
  tenant: Tenant,
  job: ImportJob,
  fields: (string | null)[],
  rows: CsvRecord[],
  report: boolean,
  now: Date,
): Promise<RowStatus[]> => {
  const byKey = new Map<string, CsvRecord[]>();
  for (const row of rows) {
    const key = rowKey(job, fields, row) ?? `#${row.record}`;
    byKey.set(key, [...(byKey.get(key) ?? []), row]);
  }
  const groups = [...byKey.values()];
  const lone = groups.filter((g) => g.length === 1).map((g) => g[0]!);
  const statuses = new Map<number, RowStatus>();
  const alone = (row: CsvRecord) => applyOnce(tenant, job, row, report, changeOf(tenant, job, fields, row, now));

  const prepared = await mapLimit(lone, READ_CONCURRENCY, (row) => prepare(row, changeOf(tenant, job, fields, row, now)));
  for (const packed of packWrites(prepared.map((p) => writesOf(tenant, job, p, report)))) {
    const members = packed.groups.map((i) => prepared[i]!);
    try {
      await direct.commit(packed.writes);
    } catch {
      await mapLimit(members, CONCURRENCY, async ({ row }) => statuses.set(row.record, await alone(row)));
      continue;
    }
    for (const p of members) statuses.set(p.row.record, await settled(p));
  }
  await mapLimit(
    groups.filter((g) => g.length > 1),
    CONCURRENCY,
    async (group) => {
      for (const row of group) statuses.set(row.record, await alone(row));
    },
  );
  return rows.map((row) => statuses.get(row.record)!);
};
