import { describe, expect, it } from 'vitest';
import { entities } from '../../../shared/data/registry/entities';
import { erasureCoverage } from '../../../shared/erasure/coverage';
import { ERASURE_STEPS } from '../../../shared/domain/erasure/erasure';

const personal = entities.filter((e) => e.personal.length > 0).map((e) => e.name);

describe('the erasure covers every entity declared with personal data', () => {
  it.each(personal)('%s has an entry saying which step erases it, or why none does', (name) => {
    const coverage = erasureCoverage[name];
    expect(coverage, `declare how an erasure treats "${name}" in shared/erasure/coverage.ts`).toBeDefined();
    if (coverage && 'step' in coverage) expect(ERASURE_STEPS).toContain(coverage.step);
  });

  it('names no entity that is not declared, or that declares no personal data', () => {
    expect(Object.keys(erasureCoverage).filter((name) => !personal.includes(name))).toEqual([]);
  });

  it('runs every step for at least one entity', () => {
    const used = new Set(Object.values(erasureCoverage).flatMap((c) => ('step' in c ? [c.step] : [])));
    expect(ERASURE_STEPS.filter((s) => !used.has(s))).toEqual([]);
  });
});
