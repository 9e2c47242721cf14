import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { wiring } from '../../infra/wiring';

const root = resolve(import.meta.dirname, '..', '..');
const readme = readFileSync(resolve(root, 'README.md'), 'utf8');

describe('the wiring module', () => {
  it('declares each method and path once', () => {
    const keys = wiring.routes.map((r) => `${r.method} ${r.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it.each(wiring.routes.map((r) => [`${r.method} ${r.path}`, r] as const))('%s names a handler that requires the declared scope', async (_, route) => {
    const mod = (await import(pathToFileURL(resolve(root, route.handler)).href)) as { handler: { scope?: unknown } };
    expect(mod.handler.scope).toBe(route.scope);
  });

  it.each(wiring.routes.map((r) => [`${r.method} ${r.path}`, r] as const))('%s is documented in the README with its scope', (_, route) => {
    const row = readme.split('\n').find((line) => line.includes(`\`${route.method} ${route.path}\``));
    expect(row, `README has no row for ${route.method} ${route.path}`).toBeDefined();
    expect(row).toContain(route.scope ? `\`${route.scope}\`` : 'any valid token');
  });
});
