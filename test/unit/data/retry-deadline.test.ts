import { describe, expect, it } from 'vitest';
import { retryOnConflict, VersionConflict } from '../../../shared/data/retry';
import { withDeadline } from '../../../shared/observability/deadline';

/** An attempt that loses its race every time, counting how often it ran. */
const alwaysLost = () => {
  const ran = { times: 0 };
  const attempt = async (): Promise<never> => {
    ran.times++;
    throw new VersionConflict();
  };
  return { ran, attempt };
};

describe('retryOnConflict', () => {
  it('retries a lost race up to its attempts outside an invocation', async () => {
    const { ran, attempt } = alwaysLost();
    await expect(retryOnConflict(attempt, 3)).rejects.toBeInstanceOf(VersionConflict);
    expect(ran.times).toBe(3);
  });

  it('stops at once near the invocation timeout, so the lost race answers 429 instead of the function timing out', async () => {
    const { ran, attempt } = alwaysLost();
    const context = { getRemainingTimeInMillis: () => 5000 };
    await expect(withDeadline(context, () => retryOnConflict(attempt, 12))).rejects.toBeInstanceOf(VersionConflict);
    expect(ran.times).toBe(1);
  });

  it('does not start an attempt that, as slow as the last, would not fit before the reserve', async () => {
    const ran = { times: 0 };
    const slowAttempt = async (): Promise<never> => {
      ran.times++;
      await new Promise((r) => setTimeout(r, 300));
      throw new VersionConflict();
    };
    // 6.5 s left: the reserve (6 s) leaves room for attempts of up to 250 ms, not for one of 300 ms.
    const context = { getRemainingTimeInMillis: () => 6500 };
    await expect(withDeadline(context, () => retryOnConflict(slowAttempt, 12))).rejects.toBeInstanceOf(VersionConflict);
    expect(ran.times).toBe(1);
  });

  it('keeps retrying while the invocation has time', async () => {
    const { ran, attempt } = alwaysLost();
    const context = { getRemainingTimeInMillis: () => 30_000 };
    await expect(withDeadline(context, () => retryOnConflict(attempt, 4))).rejects.toBeInstanceOf(VersionConflict);
    expect(ran.times).toBe(4);
  });
});
