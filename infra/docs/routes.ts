import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { wiring } from '../wiring';

/** `npm run docs`: rewrites the README's route table from the wiring, so the published scopes cannot drift. */
const file = resolve(import.meta.dirname, '..', '..', 'README.md');
const start = '<!-- routes:start -->';
const end = '<!-- routes:end -->';

const rows = [...wiring.routes]
  .sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method))
  .map((r) => `| \`${r.method} ${r.path}\` | ${r.scope ? `\`${r.scope}\`` : 'any valid token'} | ${r.summary} |`);
const table = ['| Route | Scope | What it does |', '|---|---|---|', ...rows].join('\n');

const readme = readFileSync(file, 'utf8');
const [before, rest] = readme.split(start);
if (rest === undefined || !rest.includes(end)) throw new Error(`README.md lacks the ${start} … ${end} markers`);
writeFileSync(file, `${before}${start}\n${table}\n${end}${rest.split(end)[1]}`);
process.stdout.write(`README.md: ${rows.length} routes\n`);
