import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The client as a consumer gets it: `npm pack` of infra/client (which builds it), unpacked as
 * node_modules/@parley/client of a scratch project, then the README's examples compiled against the packed
 * types with Node's own ESM resolution, and the packed code imported.
 */
const root = resolve(import.meta.dirname, '..', '..');
const packageDir = join(root, 'infra', 'client');
const scratch = join(root, '.build', 'client-package');
const installed = join(scratch, 'node_modules', '@parley', 'client');
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');

let files: string[];

beforeAll(() => {
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(installed, { recursive: true });
  const out = execFileSync('npm', ['pack', '--json', '--pack-destination', scratch], {
    cwd: packageDir,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  // The build's own lines (prepack) come first; npm's JSON report is the rest.
  const [packed] = JSON.parse(out.slice(out.search(/^\[$/m))) as { filename: string }[];
  const tarball = join(scratch, packed!.filename);
  files = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).trim().split('\n');
  execFileSync('tar', ['-xzf', tarball, '-C', installed, '--strip-components=1']);
}, 240_000);

/** The README's ```ts blocks, each written as its own module of the scratch project. */
const examples = () => [...readFileSync(join(packageDir, 'README.md'), 'utf8').matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);

/** Declarations are trusted (skipLibCheck) but must resolve: the refusals below fail if any type degrades to `any`. */
const compile = (sources: string[]) => {
  const dir = join(scratch, 'src');
  mkdirSync(dir, { recursive: true });
  for (const [i, source] of sources.entries()) writeFileSync(join(dir, `example-${i}.ts`), `${source}\nexport {};\n`);
  writeFileSync(
    join(dir, 'tsconfig.json'),
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
      include: ['*.ts'],
    }),
  );
  writeFileSync(join(scratch, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  const result = spawnSync(process.execPath, [tsc, '-p', dir], { encoding: 'utf8' });
  return (i: number) => result.stdout.split('\n').filter((line) => line.startsWith(`example-${i}.ts`) || line.includes(`/example-${i}.ts`));
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

  it('compiles every example of its README against the packed types, and a conversation with typed fields, and refuses a wrong path, a missing parameter and an unknown field', () => {
    const readme = examples();
    expect(readme.length).toBeGreaterThanOrEqual(4);
    const errorsIn = compile([...readme, accepted, ...refused]);
    for (let i = 0; i <= readme.length; i++) expect(errorsIn(i)).toEqual([]);
    const [route, param, field, conversationField] = refused.map((_, i) => errorsIn(readme.length + 1 + i).join('\n'));
    expect(route).toMatch(/"\/no\/such\/route"/);
    expect(param).toMatch(/error TS/);
    expect(field).toMatch(/nosuchfield/);
    expect(conversationField).toMatch(/nosuchfield/);
  });

  it('runs as Node ESM from the package, with openapi-fetch its only dependency', () => {
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8'));
    expect(Object.keys(manifest.dependencies)).toEqual(['openapi-fetch']);
    const out = execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "const c = await import('@parley/client'); const w = await import('@parley/client/webhooks'); console.log(typeof c.createParleyClient, typeof c.ParleyRateLimitError, typeof w.verifyWebhook);",
      ],
      { cwd: scratch, encoding: 'utf8' },
    );
    expect(out.trim()).toBe('function function function');
  });
});
