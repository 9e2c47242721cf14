import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../../infra/docs/document';
import { tagOf } from '../../../infra/docs/tags';

/** What the reference page shows beyond the routes themselves: tags, their groups, and code samples. */
const document = (await openApiDocument()) as unknown as {
  tags: { name: string; description: string }[];
  'x-tagGroups': { name: string; tags: string[] }[];
  paths: Record<string, Record<string, { tags: string[]; 'x-codeSamples': { lang: string; label: string; source: string }[] }>>;
  webhooks: Record<string, { post: { tags: string[] } }>;
};
const operations = Object.entries(document.paths).flatMap(([path, item]) =>
  Object.entries(item).map(([method, op]) => ({ path, method, op })),
);
const root = resolve(import.meta.dirname, '..', '..', '..');

describe('the reference page: tags', () => {
  it('has one tag per area, in Title Case, each with a real description, no two naming the same area', () => {
    const names = document.tags.map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
    for (const { name, description } of document.tags) {
      expect(name).toMatch(/^(?:[A-Z][A-Za-z]*|[A-Z]+)(?: [A-Z][a-z]+)*$/);
      expect(description.length).toBeGreaterThan(40);
      expect(description).not.toMatch(/^(The \w+ area|Webhook events of)/);
    }
    const stems = names.map((n) => n.toLowerCase().replace(/s$/, ''));
    expect(new Set(stems).size).toBe(stems.length);
  });

  it('puts the events of an area under the same tag as its routes (webhook and webhooks are one area)', () => {
    expect(['webhooks', 'webhook'].map(tagOf)).toEqual(['Webhooks', 'Webhooks']);
    expect(['workflows', 'workflow', 'channels', 'channel', 'broadcasts', 'broadcast'].map(tagOf)).toEqual([
      'Workflows',
      'Workflows',
      'Channels',
      'Channels',
      'Broadcasts',
      'Broadcasts',
    ]);
    expect(document.webhooks['webhook.ping']!.post.tags).toEqual(['Webhooks']);
    expect(() => tagOf('nosuch')).toThrow(/No reference tag covers "nosuch"/);
  });

  it('groups every tag in use exactly once with x-tagGroups (Redoc hides an ungrouped tag)', () => {
    const grouped = document['x-tagGroups'].flatMap((g) => g.tags);
    expect(grouped.sort()).toEqual(document.tags.map((t) => t.name).sort());
    const used = new Set([...operations.flatMap((o) => o.op.tags), ...Object.values(document.webhooks).flatMap((w) => w.post.tags)]);
    expect([...used].sort()).toEqual(grouped.sort());
  });
});

describe('the reference page: code samples', () => {
  it('gives every operation a curl and a @parley/client sample', () => {
    for (const { path, method, op } of operations) {
      expect(
        op['x-codeSamples'].map((s) => s.label),
        `${method} ${path}`,
      ).toEqual(['curl', '@parley/client']);
      const [curl] = op['x-codeSamples'];
      expect(curl!.source).toMatch(new RegExp(`^curl${method === 'get' ? '' : ` -X ${method.toUpperCase()}`} "\\$PARLEY_URL/api/v1/`));
      expect(curl!.source).not.toMatch(/\{\w+\}/);
    }
  });

  it('compiles every TypeScript sample against the client', () => {
    const dir = join(root, '.build', 'code-samples');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    for (const [i, { op }] of operations.entries())
      writeFileSync(join(dir, `sample-${i}.ts`), `${op['x-codeSamples'][1]!.source}\nexport {};\n`);
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        extends: '../../tsconfig.json',
        compilerOptions: {
          module: 'ESNext',
          moduleResolution: 'Bundler',
          noUnusedLocals: false,
          paths: { '@parley/client': ['../../packages/client/src/index.ts'] },
        },
        include: ['*.ts'],
      }),
    );
    const result = spawnSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', dir], { encoding: 'utf8' });
    expect(result.stdout).toBe('');
    expect(result.status).toBe(0);
  }, 120_000);
});
