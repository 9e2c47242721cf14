import type { Tenant } from '../auth/tenant';
import type { Customer } from '../contacts/customer';
import type { Lead } from '../crm/lead';
import { BULK_KEY_PREFIX } from '../bulk/keys';

export type ExportKind = 'customers' | 'leads';
type ExportStatus = 'queued' | 'running' | 'completed' | 'failed';

/** An export job: which records, selected by the list's filters, and where it stands. */
export interface ExportJob {
  _id: string;
  kind: ExportKind;
  status: ExportStatus;
  /** The list's filters as the request gave them (checked then), each a string. */
  filter: Record<string, string>;
  /** Rows written (the header excluded); 0 until completed. */
  rows: number;
  error: string | null;
  createdAt: string;
  completedAt: string | null;
}

/** A finished export's CSV (the bucket's lifecycle rule) and its record (its TTL) are kept 7 days; a download link lives 5 minutes. */
export const EXPORT_RETENTION_DAYS = 7;
export const EXPORT_RETENTION_SECONDS = EXPORT_RETENTION_DAYS * 24 * 3600;
export const EXPORT_DOWNLOAD_SECONDS = 300;

/**
 * A CSV an erasure rewrites is a new object, which the prefix rule would keep 7 days from the rewrite: it is tagged
 * with the whole days its export has left, and the rule of that many days (one for each of 1 to 6) expires it when
 * its first version would have gone, never before its record reads as gone (see `isKept`).
 */
export const EXPORT_DAYS_LEFT_TAG = 'parley-export-days-left';
export const REWRITTEN_EXPORT_DAYS = [1, 2, 3, 4, 5, 6] as const;
export const exportDaysLeftTag = (createdAt: string | undefined, now: Date) => {
  const left = createdAt === undefined ? 0 : Date.parse(createdAt) + EXPORT_RETENTION_SECONDS * 1000 - now.getTime();
  return { key: EXPORT_DAYS_LEFT_TAG, value: String(Math.min(EXPORT_RETENTION_DAYS, Math.max(1, Math.ceil(left / 86_400_000)))) };
};

/**
 * Whether an export is still kept at `now`. DynamoDB's TTL removes a record within days of its time, not at
 * it: past its 7 days an export reads as gone, as its CSV is (the lifecycle rule counts from the CSV's
 * writing, after the record's creation, so a record still kept never links to a deleted CSV).
 */
export const isKept = (job: Pick<ExportJob, 'createdAt'>, now: Date): boolean =>
  Date.parse(job.createdAt) + EXPORT_RETENTION_SECONDS * 1000 > now.getTime();
/** Records read per page while writing (a list's largest page). */
export const EXPORT_PAGE_SIZE = 100;

export const newExport = (kind: ExportKind, filter: ExportJob['filter'], id: string, now: Date): ExportJob => ({
  _id: id,
  kind,
  status: 'queued',
  filter,
  rows: 0,
  error: null,
  createdAt: now.toISOString(),
  completedAt: null,
});

/** Exports live beside files, under the bulk jobs' prefix, so an export key is never a file key. */
export const EXPORT_KEY_PREFIX = `${BULK_KEY_PREFIX}exports/`;
export const exportObjectKey = (tenant: Tenant, id: string): string => `${EXPORT_KEY_PREFIX}${tenant}/${id}.csv`;
export const exportFileName = (job: Pick<ExportJob, '_id' | 'kind'>): string => `${job.kind}-${job._id}.csv`;

/**
 * A cell a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, a tab or a carriage return first) is
 * prefixed with `'`, so it reads as text (OWASP's CSV injection advice).
 */
export const neutralizeCell = (value: string): string => (/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);

type Cell = string | number | boolean | null;
const text = (value: Cell): string => (value === null ? '' : neutralizeCell(String(value)));

const CUSTOMER_COLUMNS = [
  '_id',
  'name',
  'email',
  'phone',
  'externalId',
  'blocked',
  'tagIds',
  'attributes',
  'lastActivityAt',
  'createdAt',
  'updatedAt',
] as const;

const LEAD_COLUMNS = [
  '_id',
  'title',
  'pipelineId',
  'stageId',
  'status',
  'valueAmount',
  'valueCurrency',
  'customerId',
  'conversationId',
  'assigneeId',
  'source',
  'expectedCloseDate',
  'lostReason',
  'tagIds',
  'attributes',
  'stageEnteredAt',
  'closedAt',
  'createdAt',
  'updatedAt',
] as const;

/** Tag ids joined by `;`; attributes as one JSON object (empty cell when there are none). */
const tags = (ids: string[]) => ids.join(';');
const attributes = (a: Record<string, unknown>) => (Object.keys(a).length ? JSON.stringify(a) : null);

const customerCells = (c: Customer): Record<(typeof CUSTOMER_COLUMNS)[number], Cell> => ({
  ...c,
  tagIds: tags(c.tagIds),
  attributes: attributes(c.attributes),
});

const leadCells = (l: Lead): Record<(typeof LEAD_COLUMNS)[number], Cell> => ({
  ...l,
  valueAmount: l.value?.amount ?? null,
  valueCurrency: l.value?.currency ?? null,
  tagIds: tags(l.tagIds),
  attributes: attributes(l.attributes),
});

/** Each kind's header row and its records as rows of neutralized text cells. */
export const EXPORT_FORMATS = {
  customers: { columns: CUSTOMER_COLUMNS, row: (c: Customer) => CUSTOMER_COLUMNS.map((k) => text(customerCells(c)[k])) },
  leads: { columns: LEAD_COLUMNS, row: (l: Lead) => LEAD_COLUMNS.map((k) => text(leadCells(l)[k])) },
} as const;
