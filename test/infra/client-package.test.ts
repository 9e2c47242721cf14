import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The client as its README says to install it: `npm pack --workspace @parley/client` in the repository (the
 * pack builds it), then `npm install <tarball>` in a scratch project outside the repository, offline and with
 * install scripts off (its one dependency, openapi-fetch, and that one's are packed from the repository's
 * node_modules, as the registry would serve them). The README's examples are then compiled against the
 * installed types with Node's own resolution, as an ES module and as CommonJS, and the package is loaded both ways.
 */
const root = resolve(import.meta.dirname, '..', '..');
const packageDir = join(root, 'packages', 'client');
const scratch = mkdtempSync(join(tmpdir(), 'parley-client-consumer-'));
const installed = join(scratch, 'node_modules', '@parley', 'client');
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');

const npm = (args: string[]) =>
  execFileSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: scratch,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });

/** npm's JSON report of a pack; a build's own lines (prepack) may come first. */
const packed = (out: string) => (JSON.parse(out.slice(out.search(/^\[$/m))) as { filename: string }[]).map((p) => p.filename);

let files: string[];

beforeAll(() => {
  const [client] = packed(
    execFileSync('npm', ['pack', '--workspace', '@parley/client', '--json', '--pack-destination', scratch], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      // The build keeps the client types `npm test`'s pretest has just made (infra/docs/write-client-types.ts)
      // instead of making them again; it still compiles the package and copies them into it.
      env: { ...process.env, PARLEY_CLIENT_TYPES_MADE: 'true' },
    }),
  );
  const dependencies = packed(
    npm([
      'pack',
      '--ignore-scripts',
      '--json',
      ...['openapi-fetch', 'openapi-typescript-helpers'].map((d) => join(root, 'node_modules', d)),
    ]),
  );
  files = execFileSync('tar', ['-tzf', join(scratch, client!)], { encoding: 'utf8' })
    .trim()
    .split('\n');
  writeFileSync(join(scratch, 'package.json'), JSON.stringify({ name: 'consumer', private: true }));
  npm(['install', '--offline', '--ignore-scripts', ...[...dependencies, client!].map((f) => `./${f}`)]);
}, 300_000);

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The README's ```ts blocks. */
const examples = () => [...readFileSync(join(packageDir, 'README.md'), 'utf8').matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);

/**
 * Each source as a module of `esm/` (a `"type": "module"` project) and of `cjs/` (a CommonJS one), compiled in one
 * run. Declarations are trusted (skipLibCheck) but must resolve: the refusals below fail if any type degrades to `any`.
 */
const compile = (esm: string[], cjs: string[]) => {
  for (const [kind, sources] of [
    ['esm', esm],
    ['cjs', cjs],
  ] as const) {
    const dir = join(scratch, kind);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: kind === 'esm' ? 'module' : 'commonjs' }));
    for (const [i, source] of sources.entries()) writeFileSync(join(dir, `example-${i}.ts`), `${source}\nexport {};\n`);
  }
  writeFileSync(
    join(scratch, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        types: ['node'],
        typeRoots: [join(root, 'node_modules', '@types')],
      },
      include: ['esm/*.ts', 'cjs/*.ts'],
    }),
  );
  const result = spawnSync(process.execPath, [tsc, '-p', scratch], { cwd: scratch, encoding: 'utf8' });
  return (kind: 'esm' | 'cjs', i: number) => result.stdout.split('\n').filter((line) => line.startsWith(`${kind}/example-${i}.ts`));
};

const header =
  "import { createParleyClient } from '@parley/client';\nconst parley = createParleyClient({ baseUrl: 'http://x', token: 't' });\n";
const refused = [
  `${header}await parley.get('/no/such/route');`,
  `${header}await parley.get('/tags/{id}');`,
  `${header}const t = await parley.post('/auth/tokens', { body: { name: 'n', scopes: ['crm:read'] } });\nt.data.token.nosuchfield;`,
  `${header}const conv = (await parley.get('/inbox/conversations/{id}', { params: { path: { id: 'x' } } })).data.conversation;\nconv.nosuchfield;`,
];
/** A resource read through the client is typed field by field. */
const accepted = `${header}const conv = (await parley.get('/inbox/conversations/{id}', { params: { path: { id: 'x' } } })).data.conversation;\nconst status: 'open' | 'pending' | 'snoozed' | 'closed' = conv.status;\nconsole.log(status);`;

describe('the @parley/client package', () => {
  it('packs the built JavaScript, its declarations with the generated types, and the README; no sources', () => {
    for (const f of [
      'package.json',
      'README.md',
      'dist/index.js',
      'dist/index.d.ts',
      'dist/client.js',
      'dist/schema.d.ts',
      'dist/webhooks.js',
      'dist/webhooks.d.ts',
    ]) {
      expect(files).toContain(`package/${f}`);
    }
    expect(files.filter((f) => f.startsWith('package/src/') || f.endsWith('.test.ts'))).toEqual([]);
  });

  it('compiles every example of its README against the installed types, as an ES module and as CommonJS, and a conversation with typed fields, and refuses a wrong path, a missing parameter and an unknown field', () => {
    const readme = examples();
    expect(readme.length).toBeGreaterThanOrEqual(5);
    const errorsIn = compile([...readme, accepted, ...refused], readme);
    for (let i = 0; i <= readme.length; i++) expect(errorsIn('esm', i)).toEqual([]);
    for (let i = 0; i < readme.length; i++) expect(errorsIn('cjs', i)).toEqual([]);
    const [route, param, field, conversationField] = refused.map((_, i) => errorsIn('esm', readme.length + 1 + i).join('\n'));
    expect(route).toMatch(/"\/no\/such\/route"/);
    expect(param).toMatch(/error TS/);
    expect(field).toMatch(/nosuchfield/);
    expect(conversationField).toMatch(/nosuchfield/);
  });

  it('loads from the installed package by import and by require, with openapi-fetch its only dependency', () => {
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8'));
    expect(Object.keys(manifest.dependencies)).toEqual(['openapi-fetch']);
    const kinds = 'console.log(typeof c.createParleyClient, typeof c.ParleyRateLimitError, typeof w.verifyWebhook);';
    const esm = execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const c = await import('@parley/client'); const w = await import('@parley/client/webhooks'); ${kinds}`,
      ],
      { cwd: join(scratch, 'esm'), encoding: 'utf8' },
    );
    const cjs = execFileSync(
      process.execPath,
      ['--no-warnings', '-e', `const c = require('@parley/client'); const w = require('@parley/client/webhooks'); ${kinds}`],
      { cwd: join(scratch, 'cjs'), encoding: 'utf8' },
    );
    expect([esm.trim(), cjs.trim()]).toEqual(['function function function', 'function function function']);
  });
});
