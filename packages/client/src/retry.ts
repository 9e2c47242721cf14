/** How the client retries: plain data, so each decision can be tested without a clock. */
export interface RetryPolicy {
  /** Retries after the first attempt (0 turns retrying off). */
  maxRetries: number;
  /** Backoff base when the server names no wait: base, 2·base, 4·base… */
  baseDelayMs: number;
  /** The longest wait the client accepts: a `Retry-After` beyond it fails at once instead of blocking. */
  maxRetryWaitMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxRetries: 2, baseDelayMs: 500, maxRetryWaitMs: 30_000 };

/** 429 and 5xx are worth another try (the contract's rule); anything else is the caller's to fix. */
export const retryable = (status: number): boolean => status === 429 || status >= 500;

/** `Retry-After` as seconds or an HTTP date, in milliseconds from `now`; undefined when absent or unreadable. */
export const retryAfterMs = (header: string | null, now: number): number | undefined => {
  if (!header) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
};

/**
 * The wait before retry number `retry` (from 1), or undefined when there is to be no retry: the retries are
 * spent, or the server asks for a longer wait than the policy accepts. The server's word wins over backoff.
 */
export const nextDelayMs = (policy: RetryPolicy, retry: number, retryAfter: number | undefined): number | undefined => {
  if (retry > policy.maxRetries) return undefined;
  const wait = retryAfter ?? Math.min(policy.maxRetryWaitMs, policy.baseDelayMs * 2 ** (retry - 1));
  return wait > policy.maxRetryWaitMs ? undefined : wait;
};
