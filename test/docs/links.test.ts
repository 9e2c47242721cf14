import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { brokenLinks, markdownFiles } from '../support/doc-links';

const root = resolve(import.meta.dirname, '..', '..');

describe('the README and docs/', () => {
  it('link only to files that exist and to anchors those files have', () => {
    expect(markdownFiles(root).length).toBeGreaterThan(20);
    expect(brokenLinks(root, markdownFiles(root))).toEqual([]);
  });
});
