import { stringify } from 'csv-stringify/sync';
import type { Tenant } from '../domain/auth/tenant';
import { AppError } from '../domain/errors';
import type { LeadFilters } from '../domain/crm/lead-lists';
import { attachmentDisposition } from '../domain/files/file';
import { ACK, type Verdict } from '../domain/verdict';
import { EXPORT_FORMATS, EXPORT_PAGE_SIZE, exportFileName, exportObjectKey, type ExportJob } from '../domain/exports/export';
import { objectWriter } from '../aws/s3';
import { getExport, settleExport } from '../data/exports';
import type { Unit } from '../data/unit';
import { listCustomers } from '../contacts/customers';
import { listLeads } from '../crm/leads';
import { answerOf } from '../http/refusals';
import { log } from '../log';
import type { ExportMessage } from '../bulk/queue';

const CSV_TYPE = 'text/csv; charset=utf-8';

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
