import type { FinalizeRequestMiddleware, Pluggable } from '@smithy/types';
import { registerClientPlugin } from '../../shared/aws/plugins';
import { backoff, outOfTimeFor } from '../../shared/data/retry';

/**
 * DynamoDB Local serialises the writes to a table behind one lock, so a burst of writes can make a request
 * give up on that lock after 10 s with a 500 that, in its own words, "will succeed in actual DynamoDB API".
 * Nothing ran, so running it again is safe. The SDK runs it again as it does any transient error (four
 * attempts for DynamoDB); beyond those this waits and runs it again, so the local runtime fails only where AWS would.
 * No attempt starts, the SDK's own included, unless a whole lock wait still fits in the invocation's time:
 * it then fails the way an overloaded table does on AWS, with a ThrottlingException (a 429 and
 * Retry-After to an API caller), never a 500 or a timeout.
 */
const LOCK_TIMEOUT = /too long waiting for a lock/;
/** DynamoDB Local's `LOCK_WAIT_TIMEOUT_IN_SECONDS`, and a second for the backoff and the work once locked. */
const LOCK_ATTEMPT_MS = 11_000;
const EXTRA_ATTEMPTS = 6;

const isLockTimeout = (error: unknown): error is Error =>
  error instanceof Error && error.name === 'InternalServerError' && LOCK_TIMEOUT.test(error.message);

/** A lock timeout with no time left for another attempt; without the 500 status, the SDK does not retry it. */
class NoTimeForLock extends Error {
  constructor(readonly lockTimeout: Error) {
    super(lockTimeout.message);
  }
}

const throttled = (error: Error) => Object.assign(new Error(error.message, { cause: error }), { name: 'ThrottlingException' });

const isDynamo = (clientName: string | undefined) => (clientName ?? '').startsWith('DynamoDB');

export const retryLockTimeouts: Pluggable<any, any> = {
  applyToStack: (stack) => {
    stack.add(
      (next, context) => async (args) => {
        if (!isDynamo(context.clientName)) return next(args);
        for (let attempt = 1; ; attempt++) {
          try {
            return await next(args);
          } catch (error) {
            if (error instanceof NoTimeForLock) throw throttled(error.lockTimeout);
            if (!isLockTimeout(error)) throw error;
            if (attempt > EXTRA_ATTEMPTS || outOfTimeFor(LOCK_ATTEMPT_MS)) throw throttled(error);
            await backoff(attempt, 100, 2000);
          }
        }
      },
      { step: 'initialize', name: 'parleyLocalLockTimeoutRetry' },
    );
    const gate: FinalizeRequestMiddleware<any, any> = (next, context) => async (args) => {
      try {
        return await next(args);
      } catch (error) {
        if (isDynamo(context.clientName) && isLockTimeout(error) && outOfTimeFor(LOCK_ATTEMPT_MS)) throw new NoTimeForLock(error);
        throw error;
      }
    };
    stack.addRelativeTo(gate, { relation: 'after', toMiddleware: 'retryMiddleware', name: 'parleyLocalLockTimeoutGate' });
  },
};

export const installEmulatorRetries = (): void => registerClientPlugin(retryLockTimeouts);
