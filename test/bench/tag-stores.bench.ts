import { performance } from 'node:perf_hooks';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { esbuildOptions } from '../../infra/constructs/bundling';
import type { LocalStack } from '../../infra/local/stack';
import { createCustomer } from '../../shared/contacts/customers';
import { getTag } from '../../shared/data/tags';
import type { Tenant } from '../../shared/domain/auth/tenant';
import { newTag, type Tag } from '../../shared/domain/tags/tag';
import { buildEnvelope } from '../../shared/events/envelope';
import { objectId } from '../../shared/ids';
import { mapLimit } from '../../shared/domain/map-limit';
import { createTenant } from '../support/tenants';
import { meterDirect } from './capacity';
import { percentile, type Section } from './measure';
import { electrodb } from './tags-store/electrodb';
import { house } from './tags-store/house';
import type { TagStore } from './tags-store/store';
import { toolbox } from './tags-store/toolbox';
import { direct } from '../../shared/data/unit';

const REQUESTS = 60;
const WARMUP = 5;
const PAGE = 25;
const SUBJECTS: readonly { name: string; file: string; store: TagStore; lines: readonly string[] }[] = [
  {
    name: 'house registry',
    file: 'house.ts',
    store: house,
    lines: ['shared/data/registry/tags.ts', 'shared/data/tags.ts', 'shared/data/tags-tagging.ts'],
  },
  { name: 'ElectroDB 3.9.3', file: 'electrodb.ts', store: electrodb, lines: [] },
  { name: 'dynamodb-toolbox 2.10.6', file: 'toolbox.ts', store: toolbox, lines: [] },
];
const DIR = resolve(import.meta.dirname, 'tags-store');
const ROOT = resolve(import.meta.dirname, '..', '..');

/** Minified bytes of the subject's bundle, as a function's bundle is built (test/bench/bundles.bench.ts). */
const bundleKb = async (file: string): Promise<number> => {
  const outdir = mkdtempSync(join(tmpdir(), 'parley-tag-stores-'));
  try {
    const { metafile } = await build({
      ...esbuildOptions,
      sourcemap: false,
      entryPoints: [join(DIR, file)],
      outdir,
      metafile: true,
      logLevel: 'silent',
    });
    return Object.values(metafile.outputs).reduce((n, o) => n + o.bytes, 0) / 1024;
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
};

const linesOf = (paths: readonly string[]) =>
  paths.reduce(
    (n, p) =>
      n +
      readFileSync(resolve(ROOT, p), 'utf8')
        .split('\n')
        .filter((l) => l.trim()).length,
    0,
  );

/**
 * The tags area's storage written three ways (the house registry, ElectroDB, dynamodb-toolbox) against the same
 * table, each op timed in the same run and metered in write units; what a library writes the house reads back.
 */
export const run = async (_stack: LocalStack): Promise<Section[]> => {
  const now = () => new Date();
  const stores = SUBJECTS;
  // A workspace each, so every subject lists and tags only what it wrote.
  const tenants = new Map<(typeof stores)[number], Tenant>();
  const untagged = new Map<(typeof stores)[number], string[]>();
  for (const s of stores) {
    const { tenant } = await createTenant(['admin:all']);
    tenants.set(s, tenant);
    untagged.set(
      s,
      await mapLimit(
        Array.from({ length: REQUESTS + WARMUP + 1 }),
        16,
        async () => (await createCustomer(direct, tenant, { name: 'Bench' }, now()))._id,
      ),
    );
  }
  const tenantOf = (s: (typeof stores)[number]) => tenants.get(s)!;
  let made = 0;
  const tag = (s: (typeof stores)[number]) => newTag(objectId(), { name: `${s.file}-${made++}` }, now());
  const created = new Map(stores.map((s) => [s, [] as Tag[]]));

  /** Each op once per subject in turn, round after round, so load drift hits every subject alike. */
  const timed = async (op: (s: (typeof stores)[number], i: number) => Promise<unknown>): Promise<number[]> => {
    const durations = stores.map(() => [] as number[]);
    for (let i = 0; i < WARMUP + REQUESTS; i++)
      for (const [n, s] of stores.entries()) {
        const t = performance.now();
        await op(s, i);
        if (i >= WARMUP) durations[n]!.push(performance.now() - t);
      }
    return durations.map((d) =>
      percentile(
        d.sort((a, b) => a - b),
        50,
      ),
    );
  };

  const create = await timed(async (s) => {
    const t = tag(s);
    await s.store.create(tenantOf(s), t);
    created.get(s)!.push(t);
  });
  // What each subject writes, the house reads as it reads its own items; whether each reads the house's items is a finding.
  const same = (what: string, a: unknown, b: unknown) => {
    if (JSON.stringify(a) !== JSON.stringify(b)) throw new Error(`${what}: ${JSON.stringify(a)} is not ${JSON.stringify(b)}`);
  };
  const houseTag = created.get(stores[0]!)![0]!;
  const readsHouse = new Map<(typeof stores)[number], string>();
  for (const s of stores) {
    const first = created.get(s)![0]!;
    same(`${s.name} as the house reads it`, await getTag(tenantOf(s), first._id), first);
    same(`${s.name} reading its own`, await s.store.get(tenantOf(s), first._id), first);
    same(`${s.name}: a page of its own`, (await s.store.page(tenantOf(s), PAGE)).length, PAGE);
    const read = await s.store.get(tenantOf(stores[0]!), houseTag._id).then(
      (t) => (JSON.stringify(t) === JSON.stringify(houseTag) ? 'yes' : 'differs'),
      (error: Error) => `no (${(error as { code?: string }).code ?? error.message})`,
    );
    readsHouse.set(s, read);
  }
  const get = await timed((s, i) => s.store.get(tenantOf(s), created.get(s)![i % REQUESTS]!._id));
  const page = await timed((s) => s.store.page(tenantOf(s), PAGE));
  const tagOne = (s: (typeof stores)[number]) => {
    const id = untagged.get(s)!.pop()!;
    const tagId = created.get(s)![0]!._id;
    const event = buildEnvelope(
      'customer.contact.tagged',
      tenantOf(s),
      { contact: { _id: id }, tags: [created.get(s)![0]] },
      { now: now() },
    );
    return s.store.tagCustomer(tenantOf(s), id, tagId, event);
  };
  const tagging = await timed(tagOne);
  const rowOf = async (s: (typeof stores)[number]) => ({
    s,
    createUnits: await meterDirect(() => s.store.create(tenantOf(s), tag(s))),
    taggingUnits: await meterDirect(() => tagOne(s)),
    kb: await bundleKb(s.file),
    lines: linesOf([`test/bench/tags-store/${s.file}`, ...s.lines]),
  });
  const rows: Awaited<ReturnType<typeof rowOf>>[] = [];
  for (const s of stores) rows.push(await rowOf(s));
  const cell = (p50: number[], n: number) => `${p50[n]!.toFixed(2)} (${(p50[n]! / p50[0]!).toFixed(2)})`;
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
        "reads the house's items",
      ],
      rows: rows.map((r, n) => [
        r.s.name,
        r.createUnits.units,
        cell(create, n),
        cell(get, n),
        cell(page, n),
        r.taggingUnits.units,
        cell(tagging, n),
        `${r.kb.toFixed(0)} (${(r.kb / rows[0]!.kb).toFixed(2)})`,
        r.lines,
        readsHouse.get(r.s)!,
      ]),
      notes: [
        `${REQUESTS} calls per op and subject (after ${WARMUP} untimed), the subjects taking turns, direct against DynamoDB Local; WCU from the bench's capacity meter.`,
        'Page: the gsi1 query and parsing only (the route also reads the exact total, one more GetItem).',
        'Create: tag + name guard + tag count in one TransactWriteItems. Tag a customer: tag set (on condition it is unchanged), link, tag liveness check, count and outbox event in one.',
        "Lines: non-blank lines of the subject file; the house adds its declarations (registry/tags.ts) and its repository files (data/tags.ts, tags-tagging.ts, which also hold update, deletion and sweep: an overcount), not the declaration module every area shares (define.ts), as a library's own code is not counted.",
      ],
    },
  ];
};
