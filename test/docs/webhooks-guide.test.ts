import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..', '..');
const read = (path: string) => readFileSync(resolve(root, path), 'utf8');

describe('the webhooks guide', () => {
  const guide = read('docs/guide/webhooks.md');

  it("is what a receiver needs, in under 1,500 words: verification, retries and the portal; the pipeline's internals are a page of their own", () => {
    expect(guide.split(/\s+/).filter(Boolean).length).toBeLessThan(1500);
    for (const section of ['## Verifying a delivery', '## Answers, retries and deactivation', '## The delivery log, health and the portal'])
      expect(guide).toContain(section);
    expect(guide).toContain('(../contributing/webhooks-internals.md)');
    expect(read('docs/contributing/webhooks-internals.md')).toContain('## Performance');
  });

  it('carries no benchmark history: no commit hashes, no measured ratios', () => {
    expect(guide).not.toMatch(/\b[0-9a-f]{7,40}\b/);
    expect(guide).not.toMatch(/\d\.\d+×/);
  });
});
