import type { Tenant } from '../domain/auth/tenant';
import { NotFoundError } from '../domain/errors';
import { customerSearch } from '../domain/contacts/search';
import { leadListSource } from '../domain/crm/lead-lists';
import { EXPORT_DOWNLOAD_SECONDS, isKept, exportObjectKey, newExport, type ExportJob, type ExportKind } from '../domain/exports/export';
import { signedDownloadUrl } from '../aws/downloads';
import { createExport, getExport } from '../data/exports';
import type { Unit } from '../data/unit';
import { objectId } from '../ids';
import { enqueueBulkJob } from '../bulk/queue';

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
