import { readdirSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { startStack, type LocalStack } from '../../infra/local/stack';
import { printSection, type Section } from './measure';

/**
 * `npm run bench`: every `test/bench/*.bench.ts` exports `run(stack): Promise<Section[]>`; each section
 * measures a path next to its baseline in the same process, against one in-memory local stack, and prints
 * a table. Runs are bounded by count.
 */
process.env.LOG_LEVEL ??= 'silent';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const only = process.argv.slice(2);
const dir = import.meta.dirname;
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();

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
