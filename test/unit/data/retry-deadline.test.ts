import { describe, expect, it } from 'vitest';
import { retryOnConflict, VersionConflict } from '../../../shared/data/retry';
import { withDeadline } from '../../../shared/observability/deadline';

/**
 * How often `retryOnConflict` ran an attempt that loses its race every time (taking `attemptMs` to do so),
 * given at most `attempts` and, when `leftMs` is set, an invocation with that long left.
 */
const attemptsRun = async ({ attempts, leftMs, attemptMs = 0 }: { attempts: number; leftMs?: number; attemptMs?: number }) => {
  let times = 0;
  const attempt = async (): Promise<never> => {
    times++;
    if (attemptMs) await new Promise((r) => setTimeout(r, attemptMs));
    throw new VersionConflict();
  };
  const run = () => retryOnConflict(attempt, attempts);
  const context = leftMs === undefined ? undefined : { getRemainingTimeInMillis: () => leftMs };
  await expect(withDeadline(context, run)).rejects.toBeInstanceOf(VersionConflict);
  return times;
};

describe('retryOnConflict', () => {
  it('retries a lost race up to its attempts outside an invocation', async () => {
    expect(await attemptsRun({ attempts: 3 })).toBe(3);
  });

  it('stops at once near the invocation timeout, so the lost race answers 429 instead of the function timing out', async () => {
    expect(await attemptsRun({ attempts: 12, leftMs: 5000 })).toBe(1);
  });

  it('does not start an attempt that, as slow as the last, would not fit before the reserve', async () => {
    // 6.5 s left: the reserve (6 s) leaves room for attempts of up to 250 ms, not for one of 300 ms.
    expect(await attemptsRun({ attempts: 12, leftMs: 6500, attemptMs: 300 })).toBe(1);
  });

  it('keeps retrying while the invocation has time', async () => {
    expect(await attemptsRun({ attempts: 4, leftMs: 30_000 })).toBe(4);
  });
});
