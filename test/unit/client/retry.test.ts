import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY, nextDelayMs, retryAfterMs, retryable } from '../../../packages/client/src/retry';

describe("the client's retry decisions", () => {
  it('retries 429 and 5xx only', () => {
    expect([429, 500, 502, 503, 504].every(retryable)).toBe(true);
    expect([200, 201, 400, 401, 403, 404, 409, 413, 422].some(retryable)).toBe(false);
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs('3', now)).toBe(3000);
    expect(retryAfterMs('Thu, 01 Jan 2026 00:00:10 GMT', now)).toBe(10_000);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(null, now)).toBeUndefined();
  });

  it('backs off exponentially when the server names no wait, and stops after maxRetries', () => {
    expect([1, 2].map((n) => nextDelayMs(DEFAULT_RETRY, n, undefined))).toEqual([500, 1000]);
    expect(nextDelayMs(DEFAULT_RETRY, 3, undefined)).toBeUndefined();
    expect(nextDelayMs({ ...DEFAULT_RETRY, maxRetries: 20 }, 20, undefined)).toBe(DEFAULT_RETRY.maxRetryWaitMs);
  });

  it('waits what Retry-After says, and gives up at once when that exceeds the cap instead of waiting the cap out', () => {
    expect(nextDelayMs(DEFAULT_RETRY, 1, 7000)).toBe(7000);
    expect(nextDelayMs(DEFAULT_RETRY, 1, DEFAULT_RETRY.maxRetryWaitMs)).toBe(DEFAULT_RETRY.maxRetryWaitMs);
    expect(nextDelayMs(DEFAULT_RETRY, 1, 157_000)).toBeUndefined();
  });
});
