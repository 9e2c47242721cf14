import type { ParleyClient } from './client.js';
import { ParleyError } from './errors.js';
import { postToStorage, sleep } from './files.js';
import type { components } from './schema.js';

type Import = components['schemas']['Import'];
type Export = components['schemas']['Export'];

export interface BulkJobOptions<J> {
  /** Called with the job each time it is read while it runs (its `counts` for an import). */
  onProgress?: (job: J) => void;
  /** How long to wait for the job to finish (default 30 minutes). */
  timeoutMs?: number;
  /** How often to read the job meanwhile (default 1 s). */
  pollMs?: number;
  /** The workspace, when not the client's own. */
  workspaceId?: string;
  fetch?: typeof globalThis.fetch;
}

export type ImportOptions = BulkJobOptions<Import> & { columns?: Record<string, string | null> };

/** A job that ended `failed`: the job, with its `error`. */
export class ParleyJobFailedError extends ParleyError {
  constructor(readonly job: { _id: string; error: string | null }) {
    super(`Job ${job._id} failed: ${job.error ?? 'no reason given'}`);
  }
}

/** The most bytes an import's CSV may hold (50 MiB): a larger one is refused before anything is sent. */
const MAX_CSV_BYTES = 50 * 1024 * 1024;

const until = async <J extends { _id: string; status: string; error: string | null }>(
  read: () => Promise<J>,
  options: BulkJobOptions<J>,
): Promise<J> => {
  const timeoutMs = options.timeoutMs ?? 30 * 60_000;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = await read();
    if (job.status === 'completed') return job;
    if (job.status === 'failed') throw new ParleyJobFailedError(job);
    options.onProgress?.(job);
    if (Date.now() > deadline) throw new ParleyError(`Job ${job._id} was still ${job.status} after ${timeoutMs} ms`);
    await sleep(options.pollMs ?? 1000);
  }
};

const csvBlob = (csv: string | Uint8Array | Blob): Blob => {
  const blob = csv instanceof Blob ? csv : new Blob([typeof csv === 'string' ? csv : Uint8Array.from(csv)], { type: 'text/csv' });
  if (blob.size > MAX_CSV_BYTES) throw new ParleyError(`An import's CSV holds at most ${MAX_CSV_BYTES} bytes (50 MiB)`);
  return blob;
};

/**
 * Imports customers from a CSV (upserted by `idProperty`): creates the import, sends the CSV straight to storage
 * with its presigned POST, then waits for the worker. Resolves with the completed import and its `counts`; the
 * failed rows are in `GET /contacts/customers/imports/{id}/errors`. Throws `ParleyJobFailedError` when the whole
 * import fails (an unknown column, a file that is not UTF-8…).
 */
export const importCustomers = (
  parley: ParleyClient,
  csv: string | Uint8Array | Blob,
  idProperty: 'email' | 'phone',
  options: ImportOptions = {},
): Promise<Import> => {
  const workspace = options.workspaceId ? { workspaceId: options.workspaceId } : {};
  return runImport(csv, 'customers.csv', options, {
    create: async (columns) => (await parley.post('/contacts/customers/imports', { body: { idProperty, ...columns }, ...workspace })).data,
    read: async (id) => (await parley.get('/contacts/customers/imports/{id}', { params: { path: { id } }, ...workspace })).data.import,
  });
};

/** Imports leads from a CSV into a pipeline (`stageId` and `customerEmail` columns resolved), as `importCustomers` does. */
export const importLeads = (
  parley: ParleyClient,
  csv: string | Uint8Array | Blob,
  pipelineId: string,
  options: ImportOptions = {},
): Promise<Import> => {
  const workspace = options.workspaceId ? { workspaceId: options.workspaceId } : {};
  return runImport(csv, 'leads.csv', options, {
    create: async (columns) => (await parley.post('/crm/leads/imports', { body: { pipelineId, ...columns }, ...workspace })).data,
    read: async (id) => (await parley.get('/crm/leads/imports/{id}', { params: { path: { id } }, ...workspace })).data.import,
  });
};

/** An import's three steps, whichever kind: create it, send the CSV with its presigned POST, wait for the worker. */
const runImport = async (
  csv: string | Uint8Array | Blob,
  name: string,
  options: ImportOptions,
  api: {
    create: (columns: {
      columns?: Record<string, string | null>;
    }) => Promise<{ import: Import; upload: { url: string; fields: Record<string, string> } }>;
    read: (id: string) => Promise<Import>;
  },
): Promise<Import> => {
  const blob = csvBlob(csv);
  const created = await api.create(options.columns ? { columns: options.columns } : {});
  await postToStorage(created.upload, blob, name, options.fetch);
  return until(() => api.read(created.import._id), options);
};

/**
 * Exports customers or leads (with the list's `filter`) and waits for the CSV: resolves with the completed export
 * and the download's response, whose body is the CSV (read it as a stream for a large export).
 */
export const exportCsv = async (
  parley: ParleyClient,
  kind: 'customers' | 'leads',
  filter: Record<string, string> = {},
  options: BulkJobOptions<Export> = {},
): Promise<{ export: Export; csv: Response }> => {
  const workspace = options.workspaceId ? { workspaceId: options.workspaceId } : {};
  const started =
    kind === 'customers'
      ? (await parley.post('/contacts/customers/exports', { body: { filter }, ...workspace })).data.export
      : (await parley.post('/crm/leads/exports', { body: { filter }, ...workspace })).data.export;
  const read = async () =>
    kind === 'customers'
      ? (await parley.get('/contacts/customers/exports/{id}', { params: { path: { id: started._id } }, ...workspace })).data.export
      : (await parley.get('/crm/leads/exports/{id}', { params: { path: { id: started._id } }, ...workspace })).data.export;
  const done = await until(read, options);
  if (!done.download) throw new ParleyError(`Export ${done._id} completed without a download`);
  const csv = await (options.fetch ?? globalThis.fetch)(done.download.url);
  if (!csv.ok) throw new ParleyError(`The export's download answered ${csv.status}`);
  return { export: done, csv };
};
