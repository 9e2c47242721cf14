import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { bundleFunctions, esbuildOptions, type FunctionBundle } from '../../infra/constructs/bundling';
import { narrowSourceMapFile } from '../../infra/constructs/own-code-source-map';
import { wiring } from '../../functions/wiring';
import type { Section } from './measure';

/**
 * Cold starts per function (`INIT_RUNS`, default 5; a `BUNDLES` subset can afford 15), each paired with a cold
 * start of the bare client next to it in time: the figure is the median of the pairs' CPU ratios (see `pairedRounds`).
 */
const RUNS = Number(process.env.INIT_RUNS ?? 5);
/** The aims by kind of trigger: an API route's cold start is on a caller's request; a consumer's is not. */
const AIMS: Record<string, { kb: number; ratio: number }> = {
  http: { kb: 500, ratio: 1.3 },
  queue: { kb: 800, ratio: 1.5 },
  event: { kb: 800, ratio: 1.5 },
  schedule: { kb: 800, ratio: 1.5 },
};
const LARGEST = 3;
const REPO_ROOT = resolve(import.meta.dirname, '..', '..');
const BASELINE = 'baseline: bare DynamoDBClient';
/**
 * `BUNDLES=<regex> npm run bench -- bundles` measures only the functions whose handler file matches (the
 * baseline always), to iterate on a few; the figures of record are a whole run.
 */
const ONLY = new RegExp(process.env.BUNDLES ?? '');
/** Nothing listens here: every AWS call of a first invocation is refused at once, with no network. */
const NO_NETWORK = 'http://127.0.0.1:9';

interface Bundle {
  name: string;
  kind: string;
  file: string;
  event: unknown;
  /** KB a cold start loads (index.mjs and the chunks it imports), KB loaded lazily, and bytes by input file. */
  kb: number;
  lazyKb: number;
  inputs: Record<string, number>;
}

/** Every deployed function once, by handler file, with the kind of trigger that runs it. */
const deployed = (): { name: string; kind: string; handler: string; path?: string }[] => {
  const all = [
    ...wiring.routes.map((r) => ({ kind: 'http', handler: r.handler, path: `${r.method} ${r.path}` })),
    { kind: 'http', handler: wiring.fallback.handler, path: 'GET /api/v1/nothing-here' },
    ...wiring.queues.map((q) => ({ kind: 'queue', handler: q.consumer.handler })),
    ...wiring.rules.map((r) => ({ kind: 'event', handler: r.target.handler })),
    ...wiring.schedules.map((s) => ({ kind: 'schedule', handler: s.target.handler })),
  ];
  const unique = new Map(all.filter((f) => ONLY.test(f.handler)).map((f) => [f.handler, f]));
  return [...unique.values()].map((f) => ({ ...f, name: f.handler.replace(/^functions\//, '').replace(/\.ts$/, '') }));
};

/** The first invocation a cold function gets: a request with no token, an empty batch, an event, a schedule run. */
const firstEvent = (kind: string, route?: string): unknown => {
  if (kind === 'http') {
    const [method, path] = route!.split(' ');
    return {
      version: '2.0',
      routeKey: route,
      rawPath: path,
      rawQueryString: '',
      headers: {},
      isBase64Encoded: false,
      requestContext: { requestId: 'bench', http: { method, path, sourceIp: '127.0.0.1' } },
    };
  }
  if (kind === 'queue') return { Records: [] };
  return {
    version: '0',
    id: 'bench',
    source: 'aws.scheduler',
    'detail-type': 'Scheduled Event',
    time: new Date().toISOString(),
    detail: {},
  };
};

/** Lambda's environment for a traced function whose invocation is not sampled, with every endpoint refusing. */
const LAMBDA_ENV = {
  AWS_LAMBDA_FUNCTION_NAME: 'parley-bench',
  AWS_REGION: 'us-east-1',
  AWS_ACCESS_KEY_ID: 'bench',
  AWS_SECRET_ACCESS_KEY: 'bench',
  AWS_SESSION_TOKEN: 'bench',
  _X_AMZN_TRACE_ID: 'Root=1-00000000-000000000000000000000000;Parent=0000000000000000;Sampled=0',
  AWS_ENDPOINT_URL: NO_NETWORK,
  DYNAMODB_ENDPOINT: NO_NETWORK,
  SQS_ENDPOINT: NO_NETWORK,
  AWS_MAX_ATTEMPTS: '1',
  CHANNEL_SECRETS_KEY_ID: 'bench',
  LOG_LEVEL: 'info',
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
};

/** A cold start's wall-clock milliseconds, and the CPU milliseconds its process spent in them (every thread, GC included). */
interface Init {
  wall: number;
  cpu: number;
}

/**
 * Milliseconds from a fresh Node to the end of the first invocation, Lambda's cold start: import the bundle
 * (source maps on, as Lambda starts it), then call its handler once. Its output goes nowhere; the figures
 * come back on stderr. The CPU time is what a loaded machine barely moves: wall time there is mostly waiting
 * for a core, which a Lambda's own core does not do.
 */
const coldInit = (b: Bundle): Init => {
  const script = `
    const c = process.cpuUsage();
    const t = performance.now();
    const { handler } = await import(${JSON.stringify(pathToFileURL(b.file).href)});
    try { await handler(${JSON.stringify(b.event)}, { functionName: 'parley-bench', awsRequestId: 'bench', getRemainingTimeInMillis: () => 30000 }); } catch {}
    const u = process.cpuUsage(c);
    process.stderr.write('INIT ' + (performance.now() - t) + ' CPU ' + (u.user + u.system) / 1000);
    process.exit(0);`;
  const { stderr } = spawnSync(process.execPath, ['--enable-source-maps', '--input-type=module', '-e', script], {
    env: { PATH: process.env.PATH, ...LAMBDA_ENV },
    encoding: 'utf8',
    stdio: ['ignore', 'ignore', 'pipe'],
    timeout: 30_000,
  });
  const figures = /INIT ([\d.]+) CPU ([\d.]+)/.exec(stderr);
  if (!figures) throw new Error(`${b.name} did not start: ${stderr}`);
  return { wall: Number(figures[1]), cpu: Number(figures[2]) };
};

/** One run of a function and the bare client's run next to it. */
interface Pair {
  own: Init;
  baseline: Init;
}

/**
 * `RUNS` rounds over every function, with the bare client run before the first and after every second one: B f₁ f₂
 * B f₃ f₄ B …. Each function's cold start is paired with the baseline's beside it (f₁ with the one before, f₂
 * with the one after), and the two share whatever the machine was doing then. Odd rounds go in reverse order.
 * The baseline's own runs are listed under its name, paired with themselves.
 */
const pairedRounds = (baseline: Bundle, functions: Bundle[]): Map<string, Pair[]> => {
  const pairs = new Map([baseline, ...functions].map((f) => [f.name, [] as Pair[]]));
  const runBaseline = () => {
    const own = coldInit(baseline);
    pairs.get(baseline.name)!.push({ own, baseline: own });
    return own;
  };
  for (let round = 0; round < RUNS; round++) {
    const order = round % 2 ? [...functions].reverse() : functions;
    let before = runBaseline();
    for (let i = 0; i < order.length; i += 2) {
      pairs.get(order[i]!.name)!.push({ own: coldInit(order[i]!), baseline: before });
      const next = order[i + 1];
      if (!next) continue;
      const own = coldInit(next);
      before = runBaseline();
      pairs.get(next.name)!.push({ own, baseline: before });
    }
  }
  return pairs;
};

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** A bundle input's group: its package, or its folder of the repository. */
const groupOf = (path: string) =>
  /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path)?.[1] ?? (path.includes('/') ? path.split('/').slice(0, 2).join('/') : path);

/** KB loaded at a cold start by input group. */
const groups = (inputs: Record<string, number>): Map<string, number> => {
  const by = new Map<string, number>();
  for (const [path, bytes] of Object.entries(inputs)) by.set(groupOf(path), (by.get(groupOf(path)) ?? 0) + bytes / 1024);
  return by;
};

/** The largest groups of a bundle beyond what the baseline's carries: what it costs over the bare client. */
const largestInputs = (inputs: Record<string, number>, baseline: Map<string, number>): string =>
  [...groups(inputs)]
    .map(([group, kb]) => [group, kb - (baseline.get(group) ?? 0)] as const)
    .filter(([, kb]) => kb >= 1)
    .sort((a, b) => b[1] - a[1])
    .slice(0, LARGEST)
    .map(([group, kb]) => `${group} ${kb.toFixed(0)}`)
    .join(', ');

/**
 * Each function's deployed bundle (the house construct's esbuild settings), its size, what it carries beyond
 * the bare client, and its cold start, next to a bundle of the bare DynamoDB client making one call, built
 * and measured in the same run.
 */
export const run = async (): Promise<Section[]> => {
  const outdir = mkdtempSync(join(tmpdir(), 'parley-bundles-'));
  try {
    const functions = deployed();
    const entry = (name: string) => name.replaceAll('/', '__');
    const built = await bundleFunctions(Object.fromEntries(functions.map((f) => [entry(f.name), f.handler])), outdir);
    const base = await build({
      ...esbuildOptions,
      stdin: {
        contents: [
          "import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';",
          'export const client = new DynamoDBClient({});',
          "export const handler = () => client.send(new GetItemCommand({ TableName: 'parley', Key: { pk: { S: 'a' }, sk: { S: 'b' } } })).catch(() => undefined);",
        ].join('\n'),
        resolveDir: REPO_ROOT,
        loader: 'ts',
      },
      absWorkingDir: REPO_ROOT,
      outfile: join(outdir, 'baseline.mjs'),
      metafile: true,
      logLevel: 'error',
    });
    // Its map as the functions' are deployed: Parley's own code only, here the credentials alias and the stdin entry.
    narrowSourceMapFile(join(outdir, 'baseline.mjs.map'));
    const baselineInputs = Object.fromEntries(
      Object.entries(Object.entries(base.metafile.outputs).find(([path]) => path.endsWith('.mjs'))![1].inputs).map(([path, i]) => [
        path,
        i.bytesInOutput,
      ]),
    );
    const baselineGroups = groups(baselineInputs);
    const of = (bundle: FunctionBundle) => ({
      kb: bundle.start.bytes / 1024,
      lazyKb: bundle.lazyBytes / 1024,
      inputs: bundle.start.inputs,
    });
    const bundles: Bundle[] = [
      {
        name: BASELINE,
        kind: '-',
        file: join(outdir, 'baseline.mjs'),
        event: {},
        kb: statSync(join(outdir, 'baseline.mjs')).size / 1024,
        lazyKb: 0,
        inputs: baselineInputs,
      },
      ...functions.map((f) => ({
        name: f.name,
        kind: f.kind,
        file: join(built[entry(f.name)]!.dir, 'index.mjs'),
        event: firstEvent(f.kind, f.path),
        ...of(built[entry(f.name)]!),
      })),
    ];

    const [baseline, ...measured] = bundles;
    const runs = pairedRounds(baseline!, measured);
    const minOf = (b: Bundle, of: (i: Init) => number) => Math.min(...runs.get(b.name)!.map((p) => of(p.own)));
    const pairedRatio = (b: Bundle, of: (i: Init) => number) => median(runs.get(b.name)!.map((p) => of(p.own) / of(p.baseline)));
    const sizeKb = (b: Bundle) => b.kb;
    const initMs = (b: Bundle) => minOf(b, (i) => i.wall);
    const cpuMs = (b: Bundle) => minOf(b, (i) => i.cpu);
    const ratio = (b: Bundle) => (b === baseline ? 1 : pairedRatio(b, (i) => i.wall));
    const cpuRatio = (b: Bundle) => (b === baseline ? 1 : pairedRatio(b, (i) => i.cpu));
    /** How far the pairs' CPU ratios spread: their interquartile range, the noise of this run's figure. */
    const spread = (b: Bundle) => {
      if (b === baseline) return 0;
      const sorted = runs
        .get(b.name)!
        .map((p) => p.own.cpu / p.baseline.cpu)
        .sort((x, y) => x - y);
      return sorted[Math.floor((sorted.length * 3) / 4)]! - sorted[Math.floor(sorted.length / 4)]!;
    };
    const rows = bundles.map((b) => [
      b.name,
      b.kind,
      sizeKb(b),
      sizeKb(b) / sizeKb(baseline!),
      b.lazyKb,
      b === baseline ? '-' : largestInputs(b.inputs, baselineGroups),
      initMs(b),
      ratio(b),
      cpuMs(b),
      cpuRatio(b),
      spread(b),
    ]);
    const over = (kind: string, test: (b: Bundle) => boolean) => {
      const ofKind = bundles.filter((b) => b !== baseline && (kind === 'http' ? b.kind === 'http' : b.kind !== 'http'));
      return `${ofKind.filter(test).length} of ${ofKind.length}`;
    };
    return [
      {
        title: `Function bundles: size, what they carry, and cold start (fresh node: import + first call, ${RUNS} runs each paired with the bare DynamoDB client's)`,
        columns: [
          'function',
          'kind',
          'size KB',
          'size × baseline',
          'lazy KB',
          'largest inputs beyond the baseline (KB)',
          'init ms',
          'init × baseline',
          'init CPU ms',
          'CPU × baseline',
          'CPU × spread',
        ],
        rows,
        notes: [
          `Minified ESM, AWS SDK bundled, built as the deployed functions are (infra/constructs/bundling.ts); sizes exclude source maps.`,
          'Size: what a cold start loads (index.mjs and the chunks it imports); lazy: the chunks an `await import()` loads at its first use (an SDK on a rare path).',
          "Init: a fresh Node with Lambda's environment (an unsampled trace; every AWS endpoint refusing, one attempt) imports the bundle",
          'and calls its handler once (a request with no token, an empty batch, a schedule run); the baseline imports the bare client and makes one GetItem.',
          `Aims: API functions < ${AIMS.http!.kb} KB and < ${AIMS.http!.ratio}× baseline init, over the size aim ${over('http', (b) => sizeKb(b) >= AIMS.http!.kb)}, over the init aim ${over('http', (b) => ratio(b) >= AIMS.http!.ratio)} (by CPU time ${over('http', (b) => cpuRatio(b) >= AIMS.http!.ratio)});`,
          `queue, event and schedule functions < ${AIMS.queue!.kb} KB and < ${AIMS.queue!.ratio}×, over the size aim ${over('queue', (b) => sizeKb(b) >= AIMS[b.kind]!.kb)}, over the init aim ${over('queue', (b) => ratio(b) >= AIMS[b.kind]!.ratio)} (by CPU time ${over('queue', (b) => cpuRatio(b) >= AIMS[b.kind]!.ratio)}).`,
          `Each cold start is paired with one of the bare client's next to it in time (rounds of baseline, function, function, baseline, …, reversed every other round); ms are the least of the ${RUNS} runs,`,
          "× figures the median of the pairs' ratios, and the CPU ratio (user + system, every thread: what a Lambda with a fraction of a vCPU pays) is the aim's figure.",
          "On a loaded machine wall time is mostly waiting for a core; CPU time is not, but a busy core still slows it, and a pair slows together. CPU × spread: the pairs' interquartile range.",
        ],
      },
    ];
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
};
