import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { anchorsOf, brokenLinks, markdownFiles } from '../../support/doc-links';

const root = mkdtempSync(join(tmpdir(), 'parley-doc-links-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const write = (path: string, text: string) => {
  mkdirSync(join(root, path, '..'), { recursive: true });
  writeFileSync(join(root, path), text);
};

describe('the doc link check', () => {
  it('names every relative link to a missing file or a missing anchor, and passes the ones that lead somewhere', () => {
    write('docs/reference/bounds.md', '# Bounds\n\n## Per `request`: limits\n\n## Per request: limits\n');
    write(
      'docs/guide/conventions.md',
      [
        '# Conventions',
        'See [bounds](docs/reference/bounds.md) and [the limits](../reference/bounds.md#per-request-limits-1),',
        '[the top](#conventions), [missing](#nowhere), [gone](../reference/bounds.md#per-page), [site](https://example.com/x.md).',
        '```sh',
        'cat [not a link](nowhere.md)',
        '```',
        '[defined]: ../operations/observability.md',
      ].join('\n'),
    );
    write('README.md', '[Conventions](docs/guide/conventions.md#conventions)\n');
    expect(brokenLinks(root, markdownFiles(root))).toEqual([
      'docs/guide/conventions.md: docs/reference/bounds.md (no such file)',
      'docs/guide/conventions.md: #nowhere (no such anchor)',
      'docs/guide/conventions.md: ../reference/bounds.md#per-page (no such anchor)',
      'docs/guide/conventions.md: ../operations/observability.md (no such file)',
    ]);
  });

  it('makes anchors as GitHub does: formatting and punctuation dropped, a repeated heading suffixed', () => {
    expect([...anchorsOf('# The `page` rule: cursor & page\n## Retries\n## Retries\n<a id="custom"></a>')]).toEqual([
      'the-page-rule-cursor--page',
      'retries',
      'retries-1',
      'custom',
    ]);
  });
});
