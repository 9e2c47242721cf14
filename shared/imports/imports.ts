import { storedTenant, type Tenant } from '../domain/auth/tenant';
import { ValidationError } from '../domain/errors';
import { Refused } from '../domain/refusal';
import type { IdProperty } from '../domain/contacts/batch';
import { attachmentDisposition, PENDING_OBJECT_TAG } from '../domain/files/file';
import { isImportField } from '../domain/imports/columns';
import {
  IMPORT_UPLOAD_SECONDS,
  importObjectKey,
  MAX_IMPORT_BYTES,
  newImport,
  parseImportKey,
  type ImportJob,
  type ImportKind,
} from '../domain/imports/import';
import { presignUpload } from '../aws/s3';
import { createImport, getImport, updateImport } from '../data/imports';
import { getPipeline } from '../data/pipelines';
import { objectId } from '../ids';
import { log } from '../log';
import { enqueueBulkJob } from '../bulk/queue';
import type { Unit } from '../data/unit';

/** A mapping must name fields an import of `kind` fills (422 naming the header otherwise). */
const checkColumns = (kind: ImportKind, columns: ImportJob['columns']) => {
  const wrong = Object.entries(columns).filter(([, field]) => field !== null && !isImportField(kind, field));
  if (wrong.length) {
    throw new ValidationError(
      wrong.map(([header, field]) => ({
        path: `columns.${header}`,
        message: `${JSON.stringify(field)} is no field of an import of ${kind}`,
      })),
    );
  }
};

/**
 * Records an import awaiting its CSV and answers it with a presigned POST of the CSV (text/csv, 1 byte to
 * 50 MiB, 15 minutes). The object is stored tagged pending, so the bucket's lifecycle rule deletes it a day
 * after its upload, whatever becomes of the import.
 */
export const requestImport = async (
  unit: Unit,
  tenant: Tenant,
  kind: ImportKind,
  target: { idProperty: IdProperty } | { pipelineId: string },
  columns: ImportJob['columns'],
  now: Date,
) => {
  checkColumns(kind, columns);
  if ('pipelineId' in target && !(await getPipeline(tenant, target.pipelineId))) {
    throw new Refused('no_such_pipeline', 'No such pipeline in this workspace');
  }
  const job = newImport(kind, target, columns, objectId(now.getTime()), now);
  await createImport(unit, tenant, job);
  const post = await presignUpload(
    importObjectKey(tenant, job._id),
    [1, MAX_IMPORT_BYTES],
    { contentType: 'text/csv', contentDisposition: attachmentDisposition(`${kind}-import-${job._id}.csv`), tag: PENDING_OBJECT_TAG },
    IMPORT_UPLOAD_SECONDS,
  );
  const expiresAt = new Date(Math.floor(now.getTime() / 1000 + IMPORT_UPLOAD_SECONDS) * 1000).toISOString();
  return { import: job, upload: { method: 'POST' as const, url: post.url, fields: post.fields, expiresAt, maxBytes: MAX_IMPORT_BYTES } };
};

/**
 * S3 reported an import's CSV (the rule on `bulk/imports/`): the import is queued for the bulk worker, once.
 * A repeated notification of a queued import queues it again (the worker reads the cursor, so a second
 * message does no second write); one of an import already running or finished does nothing.
 */
export const startImport = async (unit: Unit, key: string): Promise<void> => {
  const named = parseImportKey(key);
  if (!named) {
    log.warn('an object under the imports prefix that names no import', { key });
    return;
  }
  const tenant = storedTenant(named.tenant);
  const moved = await updateImport(unit, tenant, named.importId, ['awaiting_upload'], { status: 'queued' });
  const status = moved ? 'queued' : (await getImport(tenant, named.importId))?.job.status;
  if (status === 'queued') await enqueueBulkJob(unit, { tenant, kind: 'import', importId: named.importId });
  log.info('import uploaded', { importId: named.importId, status });
};
