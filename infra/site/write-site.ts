import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { buildSite } from './build';

/** `npm run site [-- <dir>]`: writes the static site (reference + dashboard) for the site stack, default `.build/site`. */
const dir = resolve(process.argv[2] ?? '.build/site');
const site = await buildSite();
for (const [key, file] of site) {
  mkdirSync(dirname(resolve(dir, key)), { recursive: true });
  writeFileSync(resolve(dir, key), file.body);
}
process.stdout.write(`${dir}: ${[...site].map(([k, f]) => `${k} ${f.body.length} B`).join(', ')}\n`);
