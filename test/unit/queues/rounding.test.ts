import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toWholeSecondsRoundingUp } from '../../../shared/queues';
import { FAST_DELAYS_MS } from '../../../shared/domain/webhooks/schedule';

const MAX_MS = 12 * 3600 * 1000;
/** Delays are differences of millisecond clocks; the rounding must hold for fractions too. */
const delayMs = fc.double({ min: 0, max: MAX_MS, noNaN: true });
const wholeMs = fc.integer({ min: 0, max: MAX_MS });

describe('delays are whole seconds, rounded up', () => {
  it('a message never comes back before it is due', () => {
    fc.assert(fc.property(delayMs, (ms) => toWholeSecondsRoundingUp(ms) * 1000 >= ms));
  });

  it('and never a whole second or more after', () => {
    fc.assert(fc.property(wholeMs, (ms) => toWholeSecondsRoundingUp(ms) * 1000 - ms < 1000));
  });

  it('a delay of whole seconds is kept exactly, so the webhook schedule of 1/2/4/8 s holds', () => {
    fc.assert(fc.property(fc.nat({ max: 12 * 3600 }), (s) => toWholeSecondsRoundingUp(s * 1000) === s));
    expect(FAST_DELAYS_MS.map(toWholeSecondsRoundingUp)).toEqual([1, 2, 4, 8]);
  });

  it('a longer delay is never shorter in seconds', () => {
    fc.assert(fc.property(delayMs, delayMs, (a, b) => (a <= b ? toWholeSecondsRoundingUp(a) <= toWholeSecondsRoundingUp(b) : true)));
  });

  it('a delay already past is none', () => {
    fc.assert(fc.property(fc.double({ max: 0, noNaN: true }), (ms) => toWholeSecondsRoundingUp(ms) === 0));
  });
});
