import { resolve } from 'node:path';
import { buildSite, writeSite } from './build';

/** `npm run site [-- <dir>]`: writes the static site (reference + dashboard), default `.build/site`. */
const site = buildSite();
const dir = writeSite(resolve(process.argv[2] ?? '.build/site'), site);
process.stdout.write(`${dir}: ${[...site].map(([k, f]) => `${k} ${f.body.length} B`).join(', ')}\n`);
