import { describe, expect, it } from 'vitest';
import { reconnectWaitMs } from '../../../packages/client/src/realtime';
import { DEFAULT_RETRY } from '../../../packages/client/src/retry';

describe("the realtime client's reconnection wait", () => {
  it('is 0.1 s after a clean close, doubling with each failure in a row', () => {
    expect([0, 1, 2, 3, 8].map((n) => reconnectWaitMs(n, DEFAULT_RETRY.maxRetryWaitMs))).toEqual([100, 200, 400, 800, 25_600]);
    expect(reconnectWaitMs(20, DEFAULT_RETRY.maxRetryWaitMs)).toBe(25_600);
  });

  it("never exceeds the client's maxRetryWaitMs, as a retried request's wait does not", () => {
    expect([1, 5, 6, 8, 20].map((n) => reconnectWaitMs(n, 4000))).toEqual([200, 3200, 4000, 4000, 4000]);
  });
});
