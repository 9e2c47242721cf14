import { stringify } from 'csv-stringify/sync';
import type { Tenant } from '../domain/auth/tenant';
import { AppError, NotFoundError } from '../domain/errors';
import { customerSearch } from '../domain/contacts/search';
import { leadListSource, type LeadFilters } from '../domain/crm/lead-lists';
import { attachmentDisposition } from '../domain/files/file';
import { ACK, type Verdict } from '../domain/verdict';
import {
  EXPORT_DOWNLOAD_SECONDS,
  EXPORT_FORMATS,
  EXPORT_PAGE_SIZE,
  exportFileName,
  isKept,
  exportObjectKey,
  newExport,
  type ExportJob,
  type ExportKind,
} from '../domain/exports/export';
import { objectWriter } from '../aws/s3';
import { signedDownloadUrl } from '../aws/downloads';
import { createExport, getExport, settleExport } from '../data/exports';
import type { Unit } from '../data/unit';
import { listCustomers } from '../contacts/customers';
import { listLeads } from '../crm/leads';
import { answerOf } from '../http/refusals';
import { objectId } from '../ids';
import { log } from '../log';
import { enqueueBulkJob, type ExportMessage } from '../bulk/queue';

const CSV_TYPE = 'text/csv; charset=utf-8';

/** Checks the filters as the list route would (one search at a time for customers; a valid combination for leads). */
const checkFilter = (kind: ExportKind, filter: ExportJob['filter']) => {
  if (kind === 'customers') customerSearch(filter);
  else leadListSource(filter);
};

/** Records an export of `kind` selected by the list's `filter` and queues its writing; answered at once as `queued`. */
export const requestExport = async (
  unit: Unit,
  tenant: Tenant,
  kind: ExportKind,
  filter: ExportJob['filter'],
  now: Date,
): Promise<ExportJob> => {
  checkFilter(kind, filter);
  const job = newExport(kind, filter, objectId(now.getTime()), now);
  await createExport(unit, tenant, job);
  // Under an Idempotency-Key the export is written only after the handler returns: queued before that, the
  // worker could find no export and drop the message.
  await unit.afterCommit(() => enqueueBulkJob(unit, { tenant, kind: 'export', exportId: job._id }));
  return job;
};

/** An export of `kind` still kept (another kind's id, or one past its 7 days, is a 404), with a 5-minute download once completed. */
export const readExport = async (tenant: Tenant, kind: ExportKind, id: string, now: Date) => {
  const job = await getExport(tenant, id);
  if (job?.kind !== kind || !isKept(job, now)) throw new NotFoundError('Export');
  if (job.status !== 'completed') return { ...job, download: null };
  const expiresAt = new Date(now.getTime() + EXPORT_DOWNLOAD_SECONDS * 1000);
  const url = await signedDownloadUrl(exportObjectKey(tenant, id), expiresAt);
  return { ...job, download: { url, expiresAt: expiresAt.toISOString() } };
};

/** One page of the export's records at a time, by cursor, as CSV rows. */
async function* rowsOf(tenant: Tenant, job: ExportJob): AsyncGenerator<string[][]> {
  let cursor: string | undefined;
  do {
    const request = { limit: EXPORT_PAGE_SIZE, cursor };
    if (job.kind === 'customers') {
      const page = await listCustomers(tenant, job.filter, request);
      yield page.customers.map(EXPORT_FORMATS.customers.row);
      cursor = page.nextCursor;
    } else {
      // Checked as `LeadFilters` when the export was requested.
      const page = await listLeads(tenant, job.filter as LeadFilters, request);
      yield page.leads.map(EXPORT_FORMATS.leads.row);
      cursor = page.nextCursor;
    }
  } while (cursor);
}

/** Writes the CSV (a BOM, the header, then page after page) and answers how many rows it holds. */
const writeCsv = async (tenant: Tenant, job: ExportJob): Promise<number> => {
  const out = objectWriter(exportObjectKey(tenant, job._id), {
    contentType: CSV_TYPE,
    contentDisposition: attachmentDisposition(exportFileName(job)),
  });
  await out.write(stringify([[...EXPORT_FORMATS[job.kind].columns]], { bom: true }));
  let rows = 0;
  for await (const page of rowsOf(tenant, job)) {
    if (page.length) await out.write(stringify(page));
    rows += page.length;
  }
  await out.close();
  return rows;
};

/**
 * The worker: a queued or interrupted export is written whole, from the first page (the object appears only
 * when complete, so a rerun after a crash replaces nothing a reader saw), then marked completed. A finished
 * export's message is acknowledged and nothing more.
 */
export const runExport = async (unit: Unit, { tenant, exportId }: ExportMessage, now: () => Date): Promise<Verdict> => {
  const job = await getExport(tenant, exportId);
  if (!job || !(await settleExport(unit, tenant, exportId, { status: 'running' }))) return ACK;
  let rows: number;
  try {
    rows = await writeCsv(tenant, job);
  } catch (error) {
    // A refusal (a filter the data cannot serve) is the same on every retry; anything else comes back with the message.
    const refusal = error instanceof AppError ? error : answerOf(error);
    if (!refusal) throw error;
    log.warn('export failed', { exportId, error: refusal.message });
    await settleExport(unit, tenant, exportId, { status: 'failed', error: refusal.message, at: now() });
    return ACK;
  }
  await settleExport(unit, tenant, exportId, { status: 'completed', rows, at: now() });
  return ACK;
};
