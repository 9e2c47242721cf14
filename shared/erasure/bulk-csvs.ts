import { stringify } from 'csv-stringify/sync';
import type { Tenant } from '../domain/auth/tenant';
import { PENDING_OBJECT_TAG } from '../domain/files/file';
import {
  ERASED_FAILURE_REASON,
  namesCustomer,
  rowFates,
  type BulkCsvKind,
  type ErasedCustomer,
  type RowFate,
} from '../domain/erasure/csv-rows';
import { exportDaysLeftTag, exportObjectKey } from '../domain/exports/export';
import { importObjectKey, parseImportKey } from '../domain/imports/import';
import { listKeys, objectWriter, openObject } from '../aws/s3';
import { csvRewriteClaim, erasureProgress } from '../data/erasures';
import { replayEvents } from '../data/events-log';
import { exportRowsRemoved, getExport } from '../data/exports';
import { failureScrub, rowFailures } from '../data/imports';
import { isConditionFailure } from '../data/retry';
import type { Write } from '../data/transact';
import type { Unit } from '../data/unit';
import { csvRecords } from '../imports/csv';

/** Records written to the new object at once: the rewrite holds this many rows, whatever the CSV's size. */
const BATCH_ROWS = 500;

/** The claim of a CSV already counted by a run before this one. */
class AlreadyCounted extends Error {}

interface Rewrite {
  kind: BulkCsvKind;
  key: string;
  /** The export's own record (its `rows`), when the rows dropped change its count. */
  exportId?: string;
}

/** The CSV's header, then each record with what becomes of it; nothing when there is no such object. */
async function* decided(key: string, kind: BulkCsvKind, who: ErasedCustomer) {
  const source = await openObject(key);
  if (!source) return;
  let fate: ((cells: string[]) => RowFate) | undefined;
  for await (const { cells } of csvRecords(source.body)) {
    if (fate) yield { source, cells, fate: fate(cells) };
    else {
      fate = rowFates(kind, cells, who);
      yield { source, cells, fate: { keep: true } as RowFate };
    }
  }
}

/**
 * Rewrites one CSV without the customer's rows, streaming (one batch of rows in memory): a first read counts
 * the rows that name the customer (a CSV that names it nowhere is left as it is); the count is committed with
 * a claim that makes it once; a second read writes each record kept, emptied or not at all (see `rowFates`)
 * to a new version of the same key, which replaces the old one whole when closed. A run again after a crash
 * before the close finds the same rows (the object is unchanged), counts nothing, and writes the new version.
 * Downloads are never cached (the CDN's policy), so a download link signed before reads the new version.
 */
const rewrite = async (unit: Unit, tenant: Tenant, erasureId: string, who: ErasedCustomer, csv: Rewrite, now: Date): Promise<void> => {
  let [dropped, emptied] = [0, 0];
  for await (const { fate } of decided(csv.key, csv.kind, who)) {
    if ('drop' in fate) dropped++;
    if ('replace' in fate) emptied++;
  }
  if (dropped + emptied === 0) return;
  const exported = csv.exportId ? await getExport(tenant, csv.exportId) : undefined;
  const writes: Write[] = [
    ...csvRewriteClaim(tenant, erasureId, csv.key, { bulkCsvs: 1, csvRows: dropped + emptied }, () => new AlreadyCounted()),
    ...(csv.exportId && dropped && exported?.status === 'completed' ? [exportRowsRemoved(tenant, csv.exportId, dropped)] : []),
  ];
  try {
    await unit.commit(writes);
  } catch (error) {
    if (!(error instanceof AlreadyCounted)) throw error;
  }
  let out: ReturnType<typeof objectWriter> | undefined;
  let batch: string[][] = [];
  // Emptied cells are quoted, so an import's one-column row stays a record (an empty line would be skipped).
  const flush = async (bom = false) => {
    await out!.write(stringify(batch, { bom, quoted_empty: csv.kind === 'import' }));
    batch = [];
  };
  for await (const { source, cells, fate } of decided(csv.key, csv.kind, who)) {
    if (!out) {
      // An import's CSV keeps its tag, so the lifecycle rule still deletes it a day after (this) upload; an
      // export's is tagged with the days its export has left.
      out = objectWriter(csv.key, {
        contentType: source.contentType,
        contentDisposition: source.contentDisposition,
        tag: csv.kind === 'import' ? PENDING_OBJECT_TAG : exportDaysLeftTag(exported?.createdAt, now),
      });
      batch.push(cells);
      await flush(csv.kind === 'export');
      continue;
    }
    if ('drop' in fate) continue;
    batch.push('replace' in fate ? fate.replace : cells);
    if (batch.length >= BATCH_ROWS) await flush();
  }
  if (!out) return;
  if (batch.length) await flush();
  await out.close();
};

const IMPORT_STARTED = { exact: ['customer.import.started', 'crm.import.started'], prefixes: [] };
const EVERY_EVENT = ['0'.repeat(24), 'f'.repeat(24)] as const;

/**
 * The tenant's imports that may still hold rows: those whose CSV is in the bucket (not yet started ones too),
 * and those started within the events log's 30 days (more than the 7 days an import's failed rows are kept).
 */
const importsOf = async (tenant: Tenant): Promise<Set<string>> => {
  const ids = new Set<string>();
  for await (const key of listKeys(importObjectKey(tenant, '').replace(/\.csv$/, ''))) {
    const named = parseImportKey(key);
    if (named) ids.add(named.importId);
  }
  for await (const { payload } of replayEvents(tenant, EVERY_EVENT, IMPORT_STARTED)) {
    ids.add((JSON.parse(payload) as { data: { import: { _id: string } } }).data.import._id);
  }
  return ids;
};

/** Each failed row of the import that names the customer: its cells emptied and its reason replaced, counted once. */
const scrubFailures = async (unit: Unit, tenant: Tenant, erasureId: string, importId: string, who: ErasedCustomer) => {
  const names = namesCustomer(who);
  for await (const failure of rowFailures(tenant, importId)) {
    if (failure.reason === ERASED_FAILURE_REASON || !failure.cells.some(names)) continue;
    try {
      await unit.commit([
        failureScrub(tenant, importId, failure.record, ERASED_FAILURE_REASON),
        erasureProgress(tenant, erasureId, { csvRows: 1 }),
      ]);
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }
};

const EXPORT_ID = /\/([0-9a-f]{24})\.csv$/;

/**
 * The step: every export's CSV of the tenant (listed in the bucket: a CSV outlives its job's record), every
 * import's CSV and failed rows, rewritten without the customer. Another mode's objects live under another
 * tenant prefix (`<workspace>~test`), so they are never read.
 */
export const eraseFromBulkCsvs = async (unit: Unit, tenant: Tenant, erasureId: string, who: ErasedCustomer, now: Date): Promise<void> => {
  for await (const key of listKeys(exportObjectKey(tenant, '').replace(/\.csv$/, ''))) {
    await rewrite(unit, tenant, erasureId, who, { kind: 'export', key, exportId: EXPORT_ID.exec(key)?.[1] }, now);
  }
  for (const importId of await importsOf(tenant)) {
    await rewrite(unit, tenant, erasureId, who, { kind: 'import', key: importObjectKey(tenant, importId) }, now);
    await scrubFailures(unit, tenant, erasureId, importId, who);
  }
};
