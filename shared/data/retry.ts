import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { timeLeft } from '../observability/deadline';

/** A read-modify-write whose version check (or other optimistic condition) lost a race with another writer. */
export class VersionConflict extends Error {
  constructor() {
    super('The item changed while it was being updated');
  }
}

/** For `Unit.commit`: a failed condition that names no error of its own means another writer got there first. */
export const lostRace = (): Error => new VersionConflict();

const cancelledFor = (error: unknown, codes: readonly string[]) =>
  error instanceof TransactionCanceledException && (error.CancellationReasons ?? []).some((r) => codes.includes(r.Code ?? ''));

/** A write (alone or in a transaction) refused on a condition: what it expected was no longer so. */
export const isConditionFailure = (error: unknown): boolean =>
  (error as { name?: string }).name === 'ConditionalCheckFailedException' || cancelledFor(error, ['ConditionalCheckFailed']);

const isTransactionConflict = (error: unknown) => cancelledFor(error, ['TransactionConflict']);

/** DynamoDB's answers that mean "too much at once here; the same request later will do". */
const THROTTLED = [
  'ThrottlingException',
  'ProvisionedThroughputExceededException',
  'RequestLimitExceeded',
  'TransactionInProgressException',
];

/** A cancelled write that lost a race with another writer: nothing was written, so running it again is safe. */
export const isRaceLost = (error: unknown): boolean => error instanceof VersionConflict || isTransactionConflict(error);

/**
 * Contention that outlasted `retryOnConflict`, or throttling that outlasted the SDK's own retries. Nothing
 * was written, and the same request a moment later will do, so callers hear "retry", never "failed".
 */
export const isContention = (error: unknown): boolean =>
  isRaceLost(error) ||
  cancelledFor(error, ['ThrottlingError', 'ProvisionedThroughputExceeded']) ||
  (error instanceof Error && THROTTLED.includes(error.name));

/** Full jitter on an exponential ceiling: the n-th wait (n ≥ 1) is uniform in [0, min(capMs, baseMs·2ⁿ)). */
export const backoff = (attempt: number, baseMs = 10, capMs = 400): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(capMs, baseMs * 2 ** attempt)));

/**
 * Time an invocation keeps for answering once it stops retrying: API Gateway gives up on a function a
 * second before its 30 s timeout, and one more attempt on a busy table can take seconds.
 */
const ANSWER_RESERVE_MS = 6000;

/** Whether an attempt that may take `attemptMs` no longer fits in the invocation's time before the reserve. */
export const outOfTimeFor = (attemptMs: number): boolean => timeLeft() < ANSWER_RESERVE_MS + attemptMs;

/**
 * Whether the invocation in hand should stop retrying and answer now: an attempt that took `lastAttemptMs`
 * is not started again unless twice that fits before the reserve (a loaded table slows every attempt alike).
 */
const outOfRetryTime = (lastAttemptMs = 0): boolean => outOfTimeFor(2 * lastAttemptMs);

/**
 * Re-runs `attempt` when it lost a race: its version check failed, or DynamoDB cancelled its transaction
 * because another one touched the same item. A cancelled transaction wrote nothing, so re-running is safe.
 * Twelve attempts (at most about 3 s of waiting) let a burst of concurrent creates that all bump one
 * workspace counter drain without failing any of them. Near the invocation's timeout, or when another
 * attempt as slow as the last would not fit before it, it stops, so the caller hears "retry" (429) rather
 * than a timeout.
 */
export const retryOnConflict = async <T>(attempt: () => Promise<T>, attempts = 12): Promise<T> => {
  for (let i = 1; ; i++) {
    const started = Date.now();
    try {
      return await attempt();
    } catch (error) {
      if (i >= attempts || !isRaceLost(error) || outOfRetryTime(Date.now() - started)) throw error;
      await backoff(i);
    }
  }
};
