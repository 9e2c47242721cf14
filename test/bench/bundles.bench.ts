import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { esbuildOptions } from '../../infra/constructs/bundling';
import { wiring } from '../../infra/wiring';
import type { Section } from './measure';

/** Cold-init runs per bundle (median reported), round-robin so load drift hits all bundles alike; ~0.3 s each. */
const RUNS = 3;
const SIZE_AIM_KB = 500;
const INIT_AIM_RATIO = 1.5;
const REPO_ROOT = resolve(import.meta.dirname, '..', '..');
const BASELINE = 'baseline: bare DynamoDBClient';

interface Bundle {
  name: string;
  kind: string;
  file: string;
}

/** Every deployed function once, by handler file, with the kind of trigger that runs it. */
const deployed = (): { name: string; kind: string; handler: string }[] => {
  const all = [
    ...wiring.routes.map((r) => ({ kind: 'http', handler: r.handler })),
    { kind: 'http', handler: wiring.fallback.handler },
    ...wiring.queues.map((q) => ({ kind: 'queue', handler: q.consumer.handler })),
    ...wiring.rules.map((r) => ({ kind: 'event', handler: r.target.handler })),
    ...wiring.schedules.map((s) => ({ kind: 'schedule', handler: s.target.handler })),
  ];
  const unique = new Map(all.map((f) => [f.handler, f]));
  return [...unique.values()].map((f) => ({ ...f, name: f.handler.replace(/^functions\//, '').replace(/\.ts$/, '') }));
};

/** Milliseconds to import the bundle in a fresh Node (as Lambda starts it: source maps on, no credentials). */
const coldInit = (file: string): number =>
  Number(
    execFileSync(
      process.execPath,
      [
        '--enable-source-maps',
        '--input-type=module',
        '-e',
        `const t = performance.now(); await import(${JSON.stringify(pathToFileURL(file).href)}); process.stdout.write(String(performance.now() - t));`,
      ],
      {
        env: { PATH: process.env.PATH, LOG_LEVEL: 'silent', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
        encoding: 'utf8',
        timeout: 30_000,
      },
    ),
  );

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * Each function's deployed bundle (the house construct's esbuild settings), its size and cold-init time,
 * next to a bundle that only imports the bare DynamoDB client, built and measured in the same run.
 */
export const run = async (): Promise<Section[]> => {
  const outdir = mkdtempSync(join(tmpdir(), 'parley-bundles-'));
  try {
    const functions = deployed();
    const entry = (name: string) => name.replaceAll('/', '__');
    await build({
      ...esbuildOptions,
      entryPoints: Object.fromEntries(functions.map((f) => [entry(f.name), resolve(REPO_ROOT, f.handler)])),
      outdir,
      logLevel: 'error',
    });
    await build({
      ...esbuildOptions,
      stdin: {
        contents:
          "import { DynamoDBClient } from '@aws-sdk/client-dynamodb';\nexport const client = new DynamoDBClient({});\nexport const handler = async () => client.config.apiVersion;\n",
        resolveDir: REPO_ROOT,
        loader: 'ts',
      },
      outfile: join(outdir, 'baseline.mjs'),
      logLevel: 'error',
    });
    const bundles: Bundle[] = [
      { name: BASELINE, kind: '-', file: join(outdir, 'baseline.mjs') },
      ...functions.map((f) => ({ name: f.name, kind: f.kind, file: join(outdir, `${entry(f.name)}.mjs`) })),
    ];

    const runs = new Map(bundles.map((b) => [b.name, [] as number[]]));
    for (let i = 0; i < RUNS; i++) for (const b of bundles) runs.get(b.name)!.push(coldInit(b.file));

    const sizeKb = (b: Bundle) => statSync(b.file).size / 1024;
    const initMs = (b: Bundle) => median(runs.get(b.name)!);
    const [baseline] = bundles;
    const rows = bundles.map((b) => [b.name, b.kind, sizeKb(b), sizeKb(b) / sizeKb(baseline!), initMs(b), initMs(b) / initMs(baseline!)]);
    const oversized = bundles.filter((b) => sizeKb(b) >= SIZE_AIM_KB).length;
    const slow = bundles.filter((b) => initMs(b) / initMs(baseline!) >= INIT_AIM_RATIO).length;
    return [
      {
        title: `Function bundles: size and cold init (fresh node, median of ${RUNS}) vs the bare DynamoDB client`,
        columns: ['function', 'kind', 'size KB', 'size × baseline', 'init ms', 'init × baseline'],
        rows,
        notes: [
          `Minified ESM, AWS SDK bundled, same esbuild settings as the deployed functions (infra/constructs/bundling.ts); sizes exclude source maps.`,
          `Aim: < ${SIZE_AIM_KB} KB and < ${INIT_AIM_RATIO}× baseline init. Over the size aim: ${oversized} of ${functions.length}; over the init aim: ${slow} of ${functions.length}.`,
        ],
      },
    ];
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
};
