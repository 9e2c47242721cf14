import type { Tenant } from '../auth/tenant';
import type { IdProperty } from '../contacts/batch';
import { BULK_KEY_PREFIX } from '../bulk/keys';

export type ImportKind = 'customers' | 'leads';
export type ImportStatus = 'awaiting_upload' | 'queued' | 'running' | 'completed' | 'failed';

/** What happened to the rows so far: each data row (the header excluded) is counted once, in one of the four. */
export interface ImportCounts {
  rows: number;
  created: number;
  updated: number;
  unchanged: number;
  failed: number;
}

/** A CSV import job: what it writes, how its columns map to fields, and where it stands. */
export interface ImportJob {
  _id: string;
  kind: ImportKind;
  status: ImportStatus;
  /** Customers: the field a row is matched by (created when no customer holds its value, else updated). */
  idProperty: IdProperty | null;
  /** Leads: the pipeline every row's lead goes into. */
  pipelineId: string | null;
  /** CSV header → field (`null`: the column is deliberately skipped); a header not named here names its field. */
  columns: Record<string, string | null>;
  counts: ImportCounts;
  /** Why the whole import failed (no header, unknown columns, not UTF-8, a malformed CSV); rows' reasons are in the errors CSV. */
  error: string | null;
  createdAt: string;
  startedAt: string | null;
  completedAt: string | null;
}

/** S3 refuses an upload past this size (the presigned POST's content-length-range). */
export const MAX_IMPORT_BYTES = 50 * 1024 * 1024;
/** The presigned POST is valid 15 minutes, as a file's. */
export const IMPORT_UPLOAD_SECONDS = 15 * 60;
/** An import's record and its rows' outcomes are kept 7 days (as an export's). */
export const IMPORT_RETENTION_SECONDS = 7 * 24 * 3600;
/**
 * Whether an import is still kept at `now`: past its 7 days it reads as gone, whether or not DynamoDB's TTL (which
 * removes a record within days of its time, not at it) has removed it yet, as an export does.
 */
export const isImportKept = (job: Pick<ImportJob, 'createdAt'>, now: Date): boolean =>
  Date.parse(job.createdAt) + IMPORT_RETENTION_SECONDS * 1000 > now.getTime();
/** Rows applied between two advances of the import's cursor: the most a crash makes the next run look at again. */
export const IMPORT_CHUNK_ROWS = 100;
/** The failed rows whose cells and reason are kept for the errors CSV (every failure is counted). */
export const MAX_REPORTED_FAILURES = 1000;
/** A failed row's cells are kept up to this many characters in all (the errors CSV then marks the row cut). */
export const MAX_REPORTED_ROW_CHARS = 2000;
export const MAX_MAPPED_COLUMNS = 100;

export const zeroCounts = (): ImportCounts => ({ rows: 0, created: 0, updated: 0, unchanged: 0, failed: 0 });

export const newImport = (
  kind: ImportKind,
  target: { idProperty: IdProperty } | { pipelineId: string },
  columns: ImportJob['columns'],
  id: string,
  now: Date,
): ImportJob => ({
  _id: id,
  kind,
  status: 'awaiting_upload',
  idProperty: 'idProperty' in target ? target.idProperty : null,
  pipelineId: 'pipelineId' in target ? target.pipelineId : null,
  columns,
  counts: zeroCounts(),
  error: null,
  createdAt: now.toISOString(),
  startedAt: null,
  completedAt: null,
});

/**
 * Imports' CSVs live in the files bucket beside exports, under the bulk jobs' own prefix (which the file
 * verifier's rule skips), so an import key is never a file key: `bulk/imports/<tenant>/<id>.csv`.
 */
export const IMPORT_KEY_PREFIX = `${BULK_KEY_PREFIX}imports/`;
export const importObjectKey = (tenant: Tenant, id: string): string => `${IMPORT_KEY_PREFIX}${tenant}/${id}.csv`;

/** The tenant and import id an object key names, or undefined for any other key. */
export const parseImportKey = (key: string): { tenant: string; importId: string } | undefined => {
  const match = /^bulk\/imports\/([0-9a-f]{24}(?:~test)?)\/([0-9a-f]{24})\.csv$/.exec(key);
  return match ? { tenant: match[1]!, importId: match[2]! } : undefined;
};
