import { stringify } from 'csv-stringify/sync';
import type { Tenant } from '../domain/auth/tenant';
import { NotFoundError } from '../domain/errors';
import { neutralizeCell } from '../domain/exports/export';
import { isImportKept, type ImportJob, type ImportKind } from '../domain/imports/import';
import { getImport, rowFailures } from '../data/imports';

/** An import of `kind` still kept (another kind's id, or one past its 7 days, is a 404). */
const keptImport = async (tenant: Tenant, kind: ImportKind, id: string, now: Date) => {
  const stored = await getImport(tenant, id);
  if (stored?.job.kind !== kind || !isImportKept(stored.job, now)) throw new NotFoundError('Import');
  return stored;
};

export const readImport = async (tenant: Tenant, kind: ImportKind, id: string, now: Date): Promise<ImportJob> =>
  (await keptImport(tenant, kind, id, now)).job;

/**
 * The failed rows kept so far (about the first MAX_REPORTED_FAILURES), as a CSV: `line` and `reason`, then
 * the row's own cells under its file's header, each cell that a spreadsheet would run as a formula prefixed with `'`.
 */
export const importErrorsCsv = async (tenant: Tenant, kind: ImportKind, id: string, now: Date): Promise<string> => {
  const stored = await keptImport(tenant, kind, id, now);
  const rows: string[][] = [['line', 'reason', ...stored.header]];
  for await (const failure of rowFailures(tenant, id)) {
    // A row short of cells (a failure of its own) is padded under the header, so every row has every column.
    const cells = [...failure.cells, ...Array<string>(Math.max(0, stored.header.length - failure.cells.length)).fill('')];
    rows.push([String(failure.line), failure.reason, ...cells].map(neutralizeCell));
  }
  return stringify(rows, { bom: true });
};
