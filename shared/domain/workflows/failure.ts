/**
 * The contract's error categories and Retry backoff (docs/guide/workflows.md): categories are tried case-insensitively
 * in this order and the first match wins; anything else is `other`.
 */
export const CATEGORIES = ['network', 'auth', 'validation', 'rate_limit', 'not_found'] as const;
export type Category = (typeof CATEGORIES)[number] | 'other';

const PATTERNS: Record<(typeof CATEGORIES)[number], RegExp> = {
  network: /ECONNREFUSED|timeout|ETIMEDOUT/i,
  auth: /401|403|unauthorized|forbidden/i,
  validation: /422|validation|invalid/i,
  rate_limit: /429|rate.limit|too.many/i,
  not_found: /404|not.found/i,
};

export const categorize = (message: string): Category => CATEGORIES.find((c) => PATTERNS[c].test(message)) ?? 'other';

export const BACKOFFS = ['fixed', 'linear', 'exponential'] as const;
export type Backoff = (typeof BACKOFFS)[number];

/** Seconds before retry `n` (n from 1) with base `b`: fixed b, linear b·n, exponential b·2^(n−1). */
export const retryDelaySeconds = (backoff: Backoff, b: number, n: number): number =>
  backoff === 'fixed' ? b : backoff === 'linear' ? b * n : b * 2 ** (n - 1);

/** The error a step raised, as the interpreter and the history see it. */
export interface StepError {
  message: string;
  category: Category;
  /** The node that raised it, never the container that handled it. */
  nodeId: string;
  nodeType: string;
}
