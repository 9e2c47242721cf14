import { afterEach, describe, expect, it, vi } from 'vitest';
import { timeLeft, withDeadline } from '../../../shared/observability/deadline';

afterEach(() => {
  vi.useRealTimers();
});

describe('timeLeft', () => {
  it('is unbounded outside an invocation', () => {
    expect(timeLeft()).toBe(Number.POSITIVE_INFINITY);
  });

  it('counts down from what Lambda reported at the start', async () => {
    const left = await withDeadline({ getRemainingTimeInMillis: () => 10_000 }, async () => {
      await new Promise((r) => setTimeout(r, 50));
      return timeLeft();
    });
    // A timer may fire up to a millisecond before the monotonic clock has moved its full delay.
    expect(left).toBeLessThan(9960);
    expect(left).toBeGreaterThan(9000);
  });

  it('does not move when the wall clock jumps', () => {
    const left = withDeadline({ getRemainingTimeInMillis: () => 10_000 }, () => {
      vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 60 * 60_000 });
      return timeLeft();
    });
    expect(left).toBeGreaterThan(9000);
  });
});
