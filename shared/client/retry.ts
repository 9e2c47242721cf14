/** How the client retries: data, so it can be tested without a clock. */
export interface RetryPolicy {
  /** Attempts in all, the first included. */
  attempts: number;
  /** Backoff base when the server names no wait: base, 2·base, 4·base… */
  baseDelayMs: number;
  /** No single wait is longer than this, whatever Retry-After says. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 3, baseDelayMs: 500, maxDelayMs: 30_000 };

/** 429 and 5xx are worth another try (contract § Errors); anything else is the caller's to fix. */
export const retryable = (status: number): boolean => status === 429 || status >= 500;

/** `Retry-After` as seconds or an HTTP date, in milliseconds from `now`; undefined when absent or unreadable. */
export const retryAfterMs = (header: string | null, now: number): number | undefined => {
  if (!header) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
};

/** The wait before attempt `attempt + 1` (attempt counts from 1): the server's word first, else exponential backoff. */
export const retryDelayMs = (policy: RetryPolicy, attempt: number, retryAfter: number | undefined): number =>
  Math.min(policy.maxDelayMs, retryAfter ?? policy.baseDelayMs * 2 ** (attempt - 1));
