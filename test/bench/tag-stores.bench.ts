import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { esbuildOptions } from '../../infra/constructs/bundling';
import type { LocalStack } from '../../infra/local/stack';
import { createCustomer } from '../../shared/contacts/customers';
import { getTag } from '../../shared/data/tags';
import { newTag, type Tag } from '../../shared/domain/tags/tag';
import { buildEnvelope } from '../../shared/events/envelope';
import { objectId } from '../../shared/ids';
import { mapLimit } from '../../shared/domain/map-limit';
import { createTenant } from '../support/tenants';
import { meterDirect } from './capacity';
import { measure, type Latency, type Section } from './measure';
import type { TagStore } from './tags-store/store';

const REQUESTS = 40;
const PAGE = 25;
const SUBJECTS = [
  { name: 'house registry', file: 'house.ts', lines: ['shared/data/registry/tags.ts', 'shared/data/tags.ts', 'shared/data/tags-tagging.ts'] },
  { name: 'ElectroDB 3.9.3', file: 'electrodb.ts', lines: [] },
  { name: 'dynamodb-toolbox 2.10.6', file: 'toolbox.ts', lines: [] },
] as const;
const DIR = resolve(import.meta.dirname, 'tags-store');
const ROOT = resolve(import.meta.dirname, '..', '..');

/** Minified bytes of the subject's bundle, as a function's bundle is built (test/bench/bundles.bench.ts). */
const bundleKb = async (file: string): Promise<number> => {
  const outdir = mkdtempSync(join(tmpdir(), 'parley-tag-stores-'));
  try {
    const { metafile } = await build({ ...esbuildOptions, sourcemap: false, entryPoints: [join(DIR, file)], outdir, metafile: true, logLevel: 'silent' });
    return Object.values(metafile.outputs).reduce((n, o) => n + o.bytes, 0) / 1024;
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
};

const linesOf = (paths: readonly string[]) =>
  paths.reduce((n, p) => n + readFileSync(resolve(ROOT, p), 'utf8').split('\n').filter((l) => l.trim()).length, 0);

/**
 * The tags area's storage written three ways (the house registry, ElectroDB, dynamodb-toolbox) against the same
 * table, each op timed in the same run and metered in write units; what a library writes the house reads back.
 */
export const run = async (_stack: LocalStack): Promise<Section[]> => {
  const { tenant, workspaceId } = await createTenant(['admin:all']);
  const now = () => new Date();
  const stores = await Promise.all(
    SUBJECTS.map(async (s) => ({ ...s, store: (await import(join(DIR, s.file)))[s.file === 'house.ts' ? 'house' : s.file.replace('.ts', '')] as TagStore })),
  );
  const customers = await mapLimit(Array.from({ length: stores.length * (REQUESTS + 10) }), 16, async () => (await createCustomer(tenant, { name: 'Bench' }, now()))._id);

  const rows = [];
  for (const [n, s] of stores.entries()) {
    let made = 0;
    const tag = () => newTag(objectId(), { name: `${s.file}-${made++}` }, now());
    const created: Tag[] = [];
    const create = await measure(async () => {
      const t = tag();
      await s.store.create(tenant, t);
      created.push(t);
    }, { requests: REQUESTS, concurrency: 1, warmup: 5 });
    // What the library wrote is what the house reads: the same keys, attributes and values.
    const back = await getTag(tenant, created[0]!._id);
    if (JSON.stringify(back) !== JSON.stringify(created[0])) throw new Error(`${s.name}: the house reads ${JSON.stringify(back)}`);
    const createUnits = await meterDirect(() => s.store.create(tenant, tag()));
    const get = await measure((i) => s.store.get(tenant, created[i % created.length]!._id), { requests: REQUESTS, concurrency: 1, warmup: 5 });
    const page = await measure(() => s.store.page(tenant, PAGE), { requests: REQUESTS, concurrency: 1, warmup: 5 });
    const mine = customers.slice(n * (REQUESTS + 10), (n + 1) * (REQUESTS + 10));
    const tagOne = () => {
      const id = mine.pop()!;
      const event = buildEnvelope('customer.contact.tagged', tenant, { contact: { _id: id }, tags: [created[0]] }, { now: now() });
      return s.store.tagCustomer(tenant, id, created[0]!._id, event);
    };
    const tagging = await measure(tagOne, { requests: REQUESTS, concurrency: 1, warmup: 5 });
    const taggingUnits = await meterDirect(tagOne);
    rows.push({ s, create, createUnits, get, page, tagging, taggingUnits, kb: await bundleKb(s.file), lines: linesOf([`test/bench/tags-store/${s.file}`, ...s.lines]) });
  }
  void workspaceId;
  const base = rows[0]!;
  const ratio = (l: Latency, b: Latency) => l.p50Ms / b.p50Ms;
  return [
    {
      title: 'Tags storage: the house registry against ElectroDB and dynamodb-toolbox (same run, same table)',
      columns: [
        'subject',
        'create: WCU',
        'create p50 ms (÷ house)',
        'get p50 ms (÷ house)',
        `page of ${PAGE} p50 ms (÷ house)`,
        'tag a customer: WCU',
        'tag a customer p50 ms (÷ house)',
        'bundle KB min (÷ house)',
        'lines',
      ],
      rows: rows.map((r) => [
        r.s.name,
        r.createUnits.units,
        `${r.create.p50Ms.toFixed(2)} (${ratio(r.create, base.create).toFixed(2)})`,
        `${r.get.p50Ms.toFixed(2)} (${ratio(r.get, base.get).toFixed(2)})`,
        `${r.page.p50Ms.toFixed(2)} (${ratio(r.page, base.page).toFixed(2)})`,
        r.taggingUnits.units,
        `${r.tagging.p50Ms.toFixed(2)} (${ratio(r.tagging, base.tagging).toFixed(2)})`,
        `${r.kb.toFixed(0)} (${(r.kb / base.kb).toFixed(2)})`,
        r.lines,
      ]),
      notes: [
        `${REQUESTS} sequential calls per op and subject (after 5 untimed), direct against DynamoDB Local; WCU from the bench's capacity meter.`,
        'Create: tag + name guard + tag count in one TransactWriteItems. Tag a customer: tag set (on condition it is unchanged), link, tag liveness check, count and outbox event in one.',
        'Lines: non-blank lines of the subject file; the house adds its declarations (registry/tags.ts) and its repository files (data/tags.ts, tags-tagging.ts, which also hold update, deletion and sweep: an overcount), not the declaration module every area shares (define.ts), as a library\'s own code is not counted.',
      ],
    },
  ];
};
