import { AsyncLocalStorage } from 'node:async_hooks';
import type { Context } from 'aws-lambda';

/** The deadline is kept on the monotonic clock: a wall clock that jumps (NTP, a test moving `Date`) does not move it. */
const deadlines = new AsyncLocalStorage<number>();

/** Runs `fn` knowing when the invocation's time runs out (Lambda's `getRemainingTimeInMillis`). */
export const withDeadline = <T>(context: Pick<Context, 'getRemainingTimeInMillis'> | undefined, fn: () => T): T =>
  typeof context?.getRemainingTimeInMillis === 'function'
    ? deadlines.run(performance.now() + context.getRemainingTimeInMillis(), fn)
    : fn();

/** Milliseconds left before the invocation in hand times out; Infinity outside an invocation. */
export const timeLeft = (): number => {
  const deadline = deadlines.getStore();
  return deadline === undefined ? Number.POSITIVE_INFINITY : deadline - performance.now();
};
