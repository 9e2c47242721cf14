import { performance } from 'node:perf_hooks';
import { nameOf } from '../../infra/local/lambda';
import type { LocalStack } from '../../infra/local/stack';
import { wiring } from '../../functions/wiring';
import { getExport } from '../../shared/data/exports';
import { getImport } from '../../shared/data/imports';
import { RATE_LIMITS } from '../../shared/domain/auth/rate-limit';
import type { Tenant } from '../../shared/domain/auth/tenant';
import { client, type Client } from '../support/api';
import { postForm } from '../support/files';
import { createTenant } from '../support/tenants';
import { meterFunctions } from './capacity';
import { measureInterleaved, type Section } from './measure';
import { rotatingTokens } from './seed';

/** The file sizes imported: the metered one (write units), then two unmetered ones whose memory is compared. */
const METERED_ROWS = Number(process.env.BULK_METERED_ROWS ?? 2_000);
const SMALL_ROWS = Number(process.env.BULK_SMALL_ROWS ?? 10_000);
const LARGE_ROWS = Number(process.env.BULK_LARGE_ROWS ?? 100_000);
/** Single creates metered for the baseline's write units. */
const SINGLE_CREATES = 50;
/** Batch calls of 100 inputs (and rounds of 100 single creates) timed, interleaved. */
const BATCH_ROUNDS = Number(process.env.BULK_ROUNDS ?? 8);
/**
 * No import or export is waited for longer than this (BULK_JOB_MINUTES): the bench stops by itself, and an
 * import still running then is reported with the rows it had applied.
 */
const JOB_TIMEOUT_MS = Number(process.env.BULK_JOB_MINUTES ?? 30) * 60_000;
const SAMPLE_MS = 200;

/** This bench runs for minutes: each step says on stderr when it ends. */
const progress = (what: string) => process.stderr.write(`bulk: ${what} at ${new Date().toISOString()}\n`);

const MiB = 1024 * 1024;
const mib = (bytes: number) => Math.round((bytes / MiB) * 10) / 10;

const csvOf = (rows: number, tag: string) => {
  const lines = ['email,name'];
  for (let i = 0; i < rows; i++) lines.push(`${tag}-${i}@example.com,Customer ${i} of ${tag}`);
  return new TextEncoder().encode(`${lines.join('\r\n')}\r\n`);
};

interface Memory {
  heapUsed: number;
  rss: number;
}

/**
 * The memory of this process (which runs the local stack and so the bulk worker) while `fn` runs: at the
 * start, its peak (sampled every SAMPLE_MS) and at the end, after a garbage collection when one is exposed.
 */
const sampled = async <T>(fn: () => Promise<T>): Promise<{ result: T; start: Memory; peak: Memory; end: Memory }> => {
  const now = (): Memory => {
    const { heapUsed, rss } = process.memoryUsage();
    return { heapUsed, rss };
  };
  globalThis.gc?.();
  const start = now();
  const peak = { ...start };
  const timer = setInterval(() => {
    const m = now();
    peak.heapUsed = Math.max(peak.heapUsed, m.heapUsed);
    peak.rss = Math.max(peak.rss, m.rss);
  }, SAMPLE_MS);
  try {
    const result = await fn();
    return { result, start, peak, end: now() };
  } finally {
    clearInterval(timer);
  }
};

/** Polls `read` until it answers a value or the bench's time for a job is up (undefined). */
const until = async <T>(read: () => Promise<T | undefined>): Promise<T | undefined> => {
  const deadline = Date.now() + JOB_TIMEOUT_MS;
  for (;;) {
    const value = await read();
    if (value !== undefined || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
};

/**
 * Imports `rows` new customers through the real path; answers the rows applied and the seconds from the
 * upload to `completed`, or to the bench's time limit with the rows applied by then.
 */
const importCustomers = async (api: Client, tenant: Tenant, rows: number, tag: string) => {
  const bytes = csvOf(rows, tag);
  const created = await api.post('/api/v1/contacts/customers/imports', { idProperty: 'email' });
  if (created.status !== 201) throw new Error(`POST imports answered ${created.status}: ${JSON.stringify(created.body)}`);
  const id = created.body.data.import._id as string;
  const started = performance.now();
  const sent = await postForm(created.body.data.upload, bytes, 'text/csv');
  if (sent.status !== 204) throw new Error(`the upload answered ${sent.status}: ${sent.body}`);
  const job = await until(async () => {
    const stored = await getImport(tenant, id);
    return stored && ['completed', 'failed'].includes(stored.job.status) ? stored.job : undefined;
  });
  const seconds = (performance.now() - started) / 1000;
  if (!job) {
    const applied = (await getImport(tenant, id))!.job.counts.rows;
    progress(`import of ${rows} rows stopped waiting after ${Math.round(seconds)} s with ${applied} rows applied`);
    return { seconds, bytes: bytes.length, applied, finished: false };
  }
  progress(`import of ${rows} rows done in ${Math.round(seconds)} s`);
  if (job.status !== 'completed' || job.counts.created !== rows)
    throw new Error(`import of ${rows} rows ended ${job.status} with ${JSON.stringify(job.counts)} (${job.error})`);
  return { seconds, bytes: bytes.length, applied: rows, finished: true };
};

/**
 * `npm run bench -- bulk`: a customers CSV imported locally through the real path (POST imports, the
 * presigned POST to the S3 stand-in, the object-created rule, the bulk queue, the worker): rows per second,
 * the worker's write units per created row next to a single create's, and the memory of the process running
 * the worker at two file sizes; an export of the large import's customers; and the batch upsert of 100
 * inputs next to 100 single creates, interleaved.
 */
export const run = async (stack: LocalStack): Promise<Section[]> => {
  const worker = nameOf(wiring.queues.find((q) => q.name === 'bulk')!.consumer);
  const createRoute = nameOf(wiring.routes.find((r) => r.method === 'POST' && r.path === '/api/v1/contacts/customers')!);

  // Write units: a metered import next to metered single creates.
  const metered = await createTenant();
  const meteredApi = client(stack.baseUrl, metered);
  const importWrites = await meterFunctions(async () => {
    await importCustomers(meteredApi, metered.tenant, METERED_ROWS, 'metered');
  });
  const singleWrites = await meterFunctions(async () => {
    for (let i = 0; i < SINGLE_CREATES; i++) {
      const res = await meteredApi.post('/api/v1/contacts/customers', {
        email: `single-${i}@example.com`,
        name: `Customer ${i} of single`,
      });
      if (res.status !== 201) throw new Error(`POST /contacts/customers answered ${res.status}`);
    }
  });
  const perRow = (importWrites.get(worker)?.units ?? 0) / METERED_ROWS;
  const perCreate = (singleWrites.get(createRoute)?.units ?? 0) / SINGLE_CREATES;

  // Throughput and memory: two unmetered imports, each into its own workspace.
  const imports = [];
  for (const rows of [SMALL_ROWS, LARGE_ROWS]) {
    const caller = await createTenant();
    const memory = await sampled(() => importCustomers(client(stack.baseUrl, caller), caller.tenant, rows, `r${rows}`));
    imports.push({ rows, caller, ...memory });
  }

  // The export of the large import's customers.
  const large = imports.at(-1)!;
  const largeApi = client(stack.baseUrl, large.caller);
  const exported = await sampled(async () => {
    const started = performance.now();
    const res = await largeApi.post('/api/v1/contacts/customers/exports', {});
    if (res.status !== 202) throw new Error(`POST exports answered ${res.status}: ${JSON.stringify(res.body)}`);
    const job = await until(async () => {
      const stored = await getExport(large.caller.tenant, res.body.data.export._id);
      return stored && ['completed', 'failed'].includes(stored.status) ? stored : undefined;
    });
    if (job?.status !== 'completed') throw new Error(`export ended ${job?.status ?? 'unfinished'}: ${job?.error}`);
    progress(`export of ${job.rows} rows done`);
    return { rows: job.rows, seconds: (performance.now() - started) / 1000 };
  });

  // Batch upsert of 100 new customers next to 100 single creates, interleaved.
  const timed = await createTenant();
  const rounds = BATCH_ROUNDS + 1;
  const bulkTokens = await rotatingTokens(timed.workspaceId, ['contacts:write'], rounds, RATE_LIMITS.bulk - 1);
  const writeTokens = await rotatingTokens(timed.workspaceId, ['contacts:write'], rounds * 100, RATE_LIMITS.write - 5);
  const as = (token: string) => client(stack.baseUrl, { token, workspaceId: timed.workspaceId });
  // The warm-up calls get the same indexes as the timed ones: a counter keeps every call's customers new.
  let calls = 0;
  const inputs = (kind: string) => {
    const call = calls++;
    return Array.from({ length: 100 }, (_, i) => ({ email: `${kind}-${call}-${i}@example.com`, name: `Customer ${i}` }));
  };
  const latency = await measureInterleaved(
    {
      batch: async () => {
        const res = await as(bulkTokens()).post('/api/v1/contacts/customers/batch', { idProperty: 'email', inputs: inputs('batch') });
        if (res.status !== 200 || res.body.data.summary.created !== 100)
          throw new Error(`batch answered ${res.status}: ${JSON.stringify(res.body.data?.summary ?? res.body)}`);
      },
      singles: async () => {
        for (const input of inputs('single')) {
          const res = await as(writeTokens()).post('/api/v1/contacts/customers', input);
          if (res.status !== 201) throw new Error(`POST /contacts/customers answered ${res.status}`);
        }
      },
    },
    { requests: BATCH_ROUNDS, warmup: 1 },
  );

  const memoryRow = (label: string, m: { start: Memory; peak: Memory; end: Memory }) => [
    label,
    mib(m.start.heapUsed),
    mib(m.peak.heapUsed),
    mib(m.end.heapUsed),
    mib(m.start.rss),
    mib(m.peak.rss),
    mib(m.end.rss),
  ];
  return [
    {
      title: 'Bulk: customers CSV imports through the real path (presigned POST, S3 rule, bulk queue, worker)',
      columns: ['import', 'CSV MiB', 'rows applied', 'seconds', 'rows / s'],
      rows: imports.map((m) => [
        `${m.rows} rows${m.result.finished ? '' : ` (stopped waiting after ${JOB_TIMEOUT_MS / 60_000} min)`}`,
        mib(m.result.bytes),
        m.result.applied,
        m.result.seconds,
        m.result.applied / m.result.seconds,
      ]),
    },
    {
      title: 'Bulk: write units per created customer, import worker vs a single POST /contacts/customers (same run)',
      columns: ['path', 'rows or calls', 'WCU / created customer', '÷ single create'],
      rows: [
        ['single create (route)', SINGLE_CREATES, perCreate, 1],
        [`import (bulk worker, ${METERED_ROWS} rows)`, METERED_ROWS, perRow, perRow / perCreate],
      ],
      notes: [
        'Target: the import at most 1.5× a single create. Units are metered as the cost bench meters them (transactions doubled, index entries once).',
      ],
    },
    {
      title: 'Bulk: memory of the process running the worker (and the whole local stack) during each import, MiB',
      columns: ['import', 'heap start', 'heap peak', 'heap end', 'RSS start', 'RSS peak', 'RSS end'],
      rows: [
        ...imports.map((m) => memoryRow(`${m.result.applied} of ${m.rows} rows`, m)),
        memoryRow(`export of ${exported.result.rows} rows`, exported),
      ],
      notes: ['Flat means the large import peaks where the small one does: the worker holds one chunk of rows, never the file.'],
    },
    {
      title: 'Bulk: customers export to CSV',
      columns: ['export', 'seconds', 'rows / s'],
      rows: [[`${exported.result.rows} rows`, exported.result.seconds, exported.result.rows / exported.result.seconds]],
    },
    {
      title: 'Bulk: batch upsert of 100 new customers vs 100 single creates, interleaved',
      columns: ['path', 'rounds', 'p50 ms', 'p99 ms', 'p50 ÷ 100 single creates'],
      rows: [
        ['100 single POST /contacts/customers, one after another', BATCH_ROUNDS, latency.singles.p50Ms, latency.singles.p99Ms, 1],
        [
          'one POST /contacts/customers/batch of 100',
          BATCH_ROUNDS,
          latency.batch.p50Ms,
          latency.batch.p99Ms,
          latency.batch.p50Ms / latency.singles.p50Ms,
        ],
      ],
    },
  ];
};
