import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dataModelPage } from '../../../infra/docs/data-model';
import { entities } from '../../../shared/data/registry/entities';

const committed = readFileSync(resolve(import.meta.dirname, '..', '..', '..', 'docs', 'contributing', 'data-model.md'), 'utf8');

describe('the data-model page', () => {
  it('is the page the key registry renders (run `npm run data-model` after changing the registry)', () => {
    expect(committed).toBe(dataModelPage());
  });

  it('shows every entity and every access pattern', () => {
    for (const e of entities) {
      expect(committed).toContain(`## ${e.name}\n`);
      for (const p of e.patterns) expect(committed).toContain(`| ${p.read} |`);
    }
  });
});
