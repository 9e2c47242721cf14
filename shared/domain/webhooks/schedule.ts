/**
 * The delivery retry schedule as data (docs/guide/webhooks.md). Attempt numbers are counted within a round: a
 * delivery's first round starts when it is created, and a manual retry starts a new round.
 */
export const FAST_DELAYS_MS = [1_000, 2_000, 4_000, 8_000] as const;
export const FAST_ATTEMPTS = FAST_DELAYS_MS.length + 1;
export const LONG_DELAYS_MS = [60_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000] as const;
const LONG_JITTER = 0.1;
/** The last attempt goes this long after the round's first one. */
export const WINDOW_MS = 24 * 3_600_000;
export const MAX_RETRY_AFTER_MS = 12 * 3_600_000;
/** Attempts in a full round: the fast schedule, the long delays, and the last one at 24 h. */
export const ATTEMPTS_PER_ROUND = FAST_ATTEMPTS + LONG_DELAYS_MS.length + 1;

export interface ScheduleInput {
  /** 1-based number of the attempt that just failed, within its round. */
  attempt: number;
  /** When the round's first attempt was made (ms). */
  roundStartedAt: number;
  now: number;
  /** A receiver's Retry-After on 429/503, already in ms; raises the delay, capped at 12 h. */
  retryAfterMs?: number;
  /** In [0, 1); injectable for tests. */
  random?: () => number;
}

/** Milliseconds until the next attempt, or `null` when the round is over and the delivery has failed. */
export const nextDelayMs = ({ attempt, roundStartedAt, now, retryAfterMs, random = Math.random }: ScheduleInput): number | null => {
  let delay: number;
  if (attempt < FAST_ATTEMPTS) delay = FAST_DELAYS_MS[attempt - 1]!;
  else if (attempt < FAST_ATTEMPTS + LONG_DELAYS_MS.length) {
    const base = LONG_DELAYS_MS[attempt - FAST_ATTEMPTS]!;
    delay = base * (1 + (random() * 2 - 1) * LONG_JITTER);
  } else if (attempt === ATTEMPTS_PER_ROUND - 1) delay = Math.max(0, roundStartedAt + WINDOW_MS - now);
  else return null;
  if (retryAfterMs !== undefined) delay = Math.max(delay, Math.min(retryAfterMs, MAX_RETRY_AFTER_MS));
  return Math.round(delay);
};
