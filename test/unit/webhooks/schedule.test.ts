import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ATTEMPTS_PER_ROUND, LONG_DELAYS_MS, MAX_RETRY_AFTER_MS, WINDOW_MS, nextDelayMs } from '../../../shared/domain/webhooks/schedule';

const t0 = Date.parse('2026-01-01T00:00:00Z');

describe('the retry schedule', () => {
  it('spaces the five fast attempts at exactly 0, 1, 3, 7 and 15 s, with no jitter', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 0.9999, noNaN: true }), (r) => {
        let at = t0;
        const times = [at];
        for (let attempt = 1; attempt <= 4; attempt++) {
          at += nextDelayMs({ attempt, roundStartedAt: t0, now: at, random: () => r })!;
          times.push(at);
        }
        expect(times.map((t) => (t - t0) / 1000)).toEqual([0, 1, 3, 7, 15]);
      }),
    );
  });

  it('then waits 1 min, 5 min, 30 min, 2 h, 5 h and 10 h, each within ±10 %', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 5 }), fc.double({ min: 0, max: 0.9999, noNaN: true }), (i, r) => {
        const delay = nextDelayMs({ attempt: 5 + i, roundStartedAt: t0, now: t0, random: () => r })!;
        const base = LONG_DELAYS_MS[i]!;
        expect(delay).toBeGreaterThanOrEqual(Math.floor(base * 0.9));
        expect(delay).toBeLessThanOrEqual(Math.ceil(base * 1.1));
      }),
    );
  });

  it('makes the last attempt 24 h after the first, then gives up', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: WINDOW_MS }), (elapsed) => {
        const last = nextDelayMs({ attempt: ATTEMPTS_PER_ROUND - 1, roundStartedAt: t0, now: t0 + elapsed });
        expect(t0 + elapsed + last!).toBe(t0 + WINDOW_MS);
        expect(nextDelayMs({ attempt: ATTEMPTS_PER_ROUND, roundStartedAt: t0, now: t0 + elapsed })).toBeNull();
      }),
    );
    expect(ATTEMPTS_PER_ROUND).toBe(12);
  });

  it('lets a Retry-After raise a delay but never lower it, capped at 12 h', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10 }), fc.integer({ min: 0, max: 3 * MAX_RETRY_AFTER_MS }), (attempt, retryAfterMs) => {
        const plain = nextDelayMs({ attempt, roundStartedAt: t0, now: t0, random: () => 0.5 })!;
        const raised = nextDelayMs({ attempt, roundStartedAt: t0, now: t0, random: () => 0.5, retryAfterMs })!;
        expect(raised).toBe(Math.max(plain, Math.min(retryAfterMs, MAX_RETRY_AFTER_MS)));
      }),
    );
  });

  it('finishes a whole round inside the 24 h window even at maximum jitter', () => {
    let at = t0;
    for (let attempt = 1; attempt < ATTEMPTS_PER_ROUND; attempt++)
      at += nextDelayMs({ attempt, roundStartedAt: t0, now: at, random: () => 0.9999 })!;
    expect(at).toBe(t0 + WINDOW_MS);
  });
});
