import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { wiring } from '../../functions/wiring';
import { loadRouteHandlers } from '../../functions/wiring/route-handlers';

/** `npm run docs`: rewrites the route table of docs/reference/routes.md from the wiring and the scopes the handlers declare, so neither can drift. */
const file = resolve(import.meta.dirname, '..', '..', 'docs', 'reference', 'routes.md');
const start = '<!-- routes:start -->';
const end = '<!-- routes:end -->';

const rows = (await loadRouteHandlers(wiring.routes))
  .sort((a, b) => a.route.path.localeCompare(b.route.path) || a.route.method.localeCompare(b.route.method))
  .map(
    ({ route: r, scope }) =>
      `| \`${r.method} ${r.path}\` | ${r.public ? 'public (no token)' : scope ? `\`${scope}\`` : 'any valid token'} | ${r.summary} |`,
  );
const table = ['| Route | Scope | What it does |', '|---|---|---|', ...rows].join('\n');

const readme = readFileSync(file, 'utf8');
const [before, rest] = readme.split(start);
if (rest === undefined || !rest.includes(end)) throw new Error(`docs/reference/routes.md lacks the ${start} … ${end} markers`);
writeFileSync(file, `${before}${start}\n${table}\n${end}${rest.split(end)[1]}`);
process.stdout.write(`docs/reference/routes.md: ${rows.length} routes\n`);
