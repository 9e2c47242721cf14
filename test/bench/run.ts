import { readdirSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { printSection, type Section } from './measure';

/**
 * `npm run bench`: every `test/bench/*.bench.ts` exports `run(): Promise<Section[]>`; each section measures
 * a path next to its baseline in the same process, and prints a table. Runs are bounded by count.
 */
process.env.LOG_LEVEL ??= 'silent';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const only = process.argv.slice(2);
const dir = import.meta.dirname;
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();

for (const file of files) {
  const mod = (await import(pathToFileURL(join(dir, file)).href)) as { run: () => Promise<Section[]> };
  for (const section of await mod.run()) printSection(section);
}
process.exit(0);
