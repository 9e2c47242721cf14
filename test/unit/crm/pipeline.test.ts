import { describe, expect, it } from 'vitest';
import {
  addStage,
  editStage,
  newPipeline,
  Probability,
  removeStage,
  reorderStages,
  stageSummary,
  type Pipeline,
} from '../../../shared/domain/crm/pipeline';

const now = new Date('2026-01-01T00:00:00.000Z');
let n = 0;
const ids = () => ({ _id: 'p'.repeat(24), newId: () => String(++n).padStart(24, '0') });
const shape = (p: Pipeline) => p.stages.map((s) => `${s.name}/${s.kind}/${s.position}`);

describe('pipeline stage rules', () => {
  it('adds an open, a won and a lost stage when the given stages lack them, open first, won and lost last', () => {
    expect(shape(newPipeline({ name: 'x', stages: [{ name: 'Lost it', kind: 'lost' }] }, ids(), now))).toEqual([
      'New/open/0',
      'Lost it/lost/1',
      'Won/won/2',
    ]);
    expect(shape(newPipeline({ name: 'x' }, ids(), now))).toEqual([
      'New/open/0',
      'Qualified/open/1',
      'Proposal/open/2',
      'Won/won/3',
      'Lost/lost/4',
    ]);
  });

  it('keeps exactly one won and one lost stage and at least one open one (409 on a change that breaks it)', () => {
    const p = newPipeline({ name: 'x', stages: [{ name: 'A' }] }, ids(), now);
    const [a, won, lost] = p.stages;
    expect(() => addStage(p, { name: 'W2', kind: 'won' }, 'w2', now)).toThrow(expect.objectContaining({ code: 'CONFLICT' }));
    for (const s of [a!, won!, lost!]) expect(() => removeStage(p, s, now)).toThrow(expect.objectContaining({ code: 'CONFLICT' }));
    expect(() => editStage(p, a!, { kind: 'won' }, now)).toThrow(expect.objectContaining({ code: 'CONFLICT' }));
    expect(() => editStage(p, won!, { name: 'a' }, now)).toThrow(expect.objectContaining({ code: 'CONFLICT' }));
    const added = addStage(p, { name: 'B' }, 'b', now);
    expect(shape(added)).toEqual(['A/open/0', 'B/open/1', 'Won/won/2', 'Lost/lost/3']);
    expect(shape(addStage(p, { name: 'B' }, 'b', now, 0))).toEqual(['B/open/0', 'A/open/1', 'Won/won/2', 'Lost/lost/3']);
    expect(editStage(p, a!, { name: 'A' }, now)).toBe(p);
  });

  it('takes only probabilities DynamoDB stores exactly', () => {
    expect([0, 1e-130, 0.35, 1].map((p) => Probability.safeParse(p).success)).toEqual([true, true, true, true]);
    expect([5e-324, 1e-131, -0.1, 1.01].map((p) => Probability.safeParse(p).success)).toEqual([false, false, false, false]);
  });

  it('reorders only by a permutation of its stages', () => {
    const p = newPipeline({ name: 'x' }, ids(), now);
    const order = [...p.stages].reverse().map((s) => s._id);
    expect(reorderStages(p, order, now).stages.map((s) => s._id)).toEqual(order);
    expect(
      reorderStages(
        p,
        p.stages.map((s) => s._id),
        now,
      ),
    ).toBe(p);
    expect(() => reorderStages(p, order.slice(1), now)).toThrow(expect.objectContaining({ code: 'VALIDATION_ERROR' }));
  });

  it('weighs a stage value by its probability, rounded to minor units, and drops currencies summing to zero', () => {
    const [stage] = newPipeline({ name: 'x', stages: [{ name: 'A', probability: 0.35 }] }, ids(), now).stages;
    expect(stageSummary(stage!, { count: 2, amounts: { USD: 1001, EUR: 0 } })).toMatchObject({
      count: 2,
      values: [{ currency: 'USD', amount: 1001, weightedAmount: 350 }],
    });
  });
});
