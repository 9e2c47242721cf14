import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { localDate, periodsOf } from '../../../shared/domain/analytics/calendar';
import { bucketOf, merge, quantile, RELATIVE_ERROR, type Histogram } from '../../../shared/domain/analytics/histogram';
import { rangeOf } from '../../../shared/domain/analytics/report';

const sketch = (values: number[]): Histogram => {
  const h: Histogram = new Map();
  for (const v of values) h.set(bucketOf(v), (h.get(bucketOf(v)) ?? 0) + 1);
  return h;
};
const exact = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.ceil(q * values.length) - 1]!;

describe('the log-scale sketch', () => {
  it('reports every nearest-rank percentile within its documented relative error (+0.5 for rounding)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 1, max: 3e7, noNaN: true }), { minLength: 1, maxLength: 200 }),
        fc.double({ min: 0.01, max: 1, noNaN: true }),
        (values, q) => {
          const truth = exact(values, q);
          expect(Math.abs(quantile(sketch(values), q)! - truth)).toBeLessThanOrEqual(truth * RELATIVE_ERROR + 0.5);
        },
      ),
    );
  });

  it('merges days into exactly the sketch of all their values', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(100_000)), fc.array(fc.nat(100_000)), (a, b) => {
        expect(merge(sketch(a), sketch(b))).toEqual(sketch([...a, ...b]));
      }),
    );
  });

  it('is empty-safe and reads sub-second values as 0', () => {
    expect(quantile(new Map(), 0.5)).toBeNull();
    expect(quantile(sketch([0.2, 0.7]), 0.9)).toBe(0);
  });
});

describe('calendar days and periods', () => {
  it('puts an instant on the workspace timezone’s calendar day', () => {
    expect(localDate(new Date('2026-01-05T04:59:59Z'), 'America/New_York')).toBe('2026-01-04');
    expect(localDate(new Date('2026-01-05T05:00:00Z'), 'America/New_York')).toBe('2026-01-05');
    expect(localDate(new Date('2026-01-04T18:30:00Z'), 'Asia/Kolkata')).toBe('2026-01-05');
  });

  it('splits a range into days, or ISO weeks clipped to it', () => {
    expect(periodsOf('2026-01-03', '2026-01-05', 'day').map((p) => p.start)).toEqual(['2026-01-03', '2026-01-04', '2026-01-05']);
    expect(periodsOf('2026-01-03', '2026-01-13', 'week')).toEqual([
      { start: '2026-01-03', end: '2026-01-04' },
      { start: '2026-01-05', end: '2026-01-11' },
      { start: '2026-01-12', end: '2026-01-13' },
    ]);
  });

  it('defaults to the 30 days up to today and refuses reversed or overlong ranges', () => {
    expect(rangeOf({ interval: 'day' }, '2026-03-31', 'UTC')).toEqual({
      from: '2026-03-02',
      to: '2026-03-31',
      interval: 'day',
      timezone: 'UTC',
    });
    expect(rangeOf({ from: '2026-02-01', to: '2026-01-01', interval: 'day' }, '2026-03-31', 'UTC')).toMatchObject({
      error: { path: 'from' },
    });
    expect(rangeOf({ from: '2024-12-31', to: '2026-01-01', interval: 'day' }, '2026-03-31', 'UTC')).toMatchObject({
      error: { path: 'to' },
    });
    expect(rangeOf({ from: '2025-01-01', to: '2026-01-01', interval: 'week' }, '2026-03-31', 'UTC')).not.toHaveProperty('error');
  });
});
