/**
 * `npm run fuzz`: the schema fuzz of test/gates/schema-fuzz.test.ts at depth. Starts its own local stack
 * (DynamoDB Local, SQS emulator, gateway), sends at least 10 000 generated requests to every wiring
 * route, stops the stack and prints one row per route, the cases per input class and the slowest answer.
 * Exits 1 when any answer broke the contract or took over 2 s.
 *
 *   npm run fuzz -- [--cases 10000] [--seed 1] [--route tags] [--concurrency 2]
 */
export {};

process.env.LOG_LEVEL ??= 'silent';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const { parseArgs } = await import('node:util');
const { startStack } = await import('../../infra/local/stack');
const { client } = await import('../support/api');
const { FUZZ_HINTS, MAX_ANSWER_MS, TokenPool, fuzzRoute, realCursorsFor, realIdsFor } = await import('../support/fuzz');
const { makeFactories } = await import('../support/resource-factories');
const { loadRoutes } = await import('../support/routes');
const { createTenant, tokenFor } = await import('../support/tenants');

const { values } = parseArgs({
  options: {
    cases: { type: 'string', default: '10000' },
    seed: { type: 'string', default: String(Date.now() % 1_000_000) },
    route: { type: 'string' },
    concurrency: { type: 'string', default: '2' },
  },
});
const cases = Number(values.cases);
const seed = Number(values.seed);
const concurrency = Number(values.concurrency);

const pad = (s: string | number, n: number) => String(s).padEnd(n);
const lpad = (s: string | number, n: number) => String(s).padStart(n);
const statusList = (m: Map<number, number>) =>
  [...m]
    .sort(([a], [b]) => a - b)
    .map(([s, n]) => `${s}×${n}`)
    .join(' ');

const stack = await startStack({ port: 0, workers: false, env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
let failing = 0;
const started = Date.now();
try {
  const routes = (await loadRoutes()).filter((r) => !values.route || r.key.includes(values.route));
  const { workspaceId } = await createTenant(['admin:all'], { name: 'Fuzz workspace' });
  const factories = makeFactories({ webhookUrl: 'https://127.0.0.1:9/hook' });
  process.stdout.write(`fuzzing ${routes.length} routes × ${cases} cases (seed ${seed}) at ${stack.baseUrl}\n\n`);
  const width = Math.max(...routes.map((r) => r.key.length)) + 2;
  const header = `${pad('route', width)}${lpad('cases', 7)}  ${lpad('5xx', 5)}  ${lpad('non-JSON', 8)}  ${lpad('failing', 7)}  ${lpad('time', 7)}  statuses seen`;
  process.stdout.write(`${header}\n${'-'.repeat(header.length + 40)}\n`);
  const all = [];
  for (const [i, route] of routes.entries()) {
    const api = client(stack.baseUrl, { token: (await tokenFor([workspaceId], ['admin:all'])).token, workspaceId });
    const ids = await realIdsFor(api, route, factories);
    const cursors = await realCursorsFor(api, route, ids);
    const pool = new TokenPool(workspaceId);
    const stats = await fuzzRoute(stack.baseUrl, route, pool, {
      cases,
      seed: seed + i * 7919,
      concurrency,
      opts: { ids, hints: FUZZ_HINTS, cursors },
      keepFailures: 5,
    });
    all.push(stats);
    failing += stats.failing;
    process.stdout.write(
      `${pad(route.key, width)}${lpad(stats.cases, 7)}  ${lpad(stats.serverErrors, 5)}  ${lpad(stats.nonJson, 8)}  ${lpad(stats.failing, 7)}  ${lpad(`${(stats.ms / 1000).toFixed(1)}s`, 7)}  ${statusList(stats.statuses)}\n`,
    );
  }
  const total = all.reduce((n, s) => n + s.cases, 0);
  process.stdout.write(`\n${total} requests in ${((Date.now() - started) / 1000).toFixed(0)} s; ${failing} broke the contract.\n`);
  const classes = new Map<string, number>();
  for (const s of all) for (const [kind, n] of s.classes) classes.set(kind, (classes.get(kind) ?? 0) + n);
  process.stdout.write(
    `\ncases per class:\n${[...classes]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([kind, n]) => `  ${pad(kind, 32)}${n}`)
      .join('\n')}\n`,
  );
  const slowest = all.reduce((a, s) => (s.slowest.ms > a.ms ? s.slowest : a), { ms: 0, case: '' });
  process.stdout.write(`slowest answer: ${slowest.ms} ms (limit ${MAX_ANSWER_MS} ms) for ${slowest.case}\n`);
  process.stdout.write(`${all.reduce((n, s) => n + s.stalls, 0)} answers over the limit once, sent again\n`);
  for (const s of all.filter((x) => x.failures.length)) {
    process.stdout.write(`\n${s.route}: ${s.failing} failing cases, the first ${s.failures.length}:\n`);
    for (const f of s.failures) process.stdout.write(`  ${f.case}\n    → ${f.status}: ${f.problems.join('; ')}\n    ${f.body}\n`);
  }
} finally {
  await stack.stop();
}
process.exit(failing ? 1 : 0);
