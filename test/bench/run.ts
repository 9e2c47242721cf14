import { spawnSync } from 'node:child_process';
import { readdirSync, rmSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { startStack, type LocalStack } from '../../infra/local/stack';
import { registerCapacityMeter } from './capacity';
import { printSection, type Section } from './measure';
import { TLS_DIR_ENV, createTestCertificate } from '../support/tls';

/**
 * `npm run bench`: every `test/bench/*.bench.ts` exports `run(stack): Promise<Section[]>`; each section
 * measures a path next to its baseline in the same process, against one in-memory local stack, and prints
 * a table. Runs are bounded by count.
 */
// HTTPS receivers in the benches use a self-signed certificate; Node reads NODE_EXTRA_CA_CERTS only at
// start-up, so the first run makes the certificate and re-runs itself once with it trusted.
if (!process.env[TLS_DIR_ENV]) {
  const tls = await createTestCertificate();
  // The young generation `npm start` and the tests give the local runtime (vitest.config.ts).
  const rerun = spawnSync(
    process.execPath,
    ['--max-semi-space-size=64', '--import', 'tsx', import.meta.filename, ...process.argv.slice(2)],
    {
      stdio: 'inherit',
      env: { ...process.env, [TLS_DIR_ENV]: tls.dir, NODE_EXTRA_CA_CERTS: tls.certFile },
    },
  );
  rmSync(tls.dir, { recursive: true, force: true });
  process.exit(rerun.status ?? 1);
}

process.env.LOG_LEVEL ??= 'silent';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const only = process.argv.slice(2);
const dir = import.meta.dirname;
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();

registerCapacityMeter();
const stack = await startStack({ port: 0, env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
try {
  for (const file of files) {
    const mod = (await import(pathToFileURL(join(dir, file)).href)) as { run: (stack: LocalStack) => Promise<Section[]> };
    for (const section of await mod.run(stack)) printSection(section);
  }
} finally {
  await stack.stop();
}
process.exit(0);
