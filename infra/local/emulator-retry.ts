import type { Pluggable } from '@smithy/types';
import { registerClientPlugin } from '../../shared/aws/plugins';
import { backoff, outOfRetryTime } from '../../shared/data/retry';

/**
 * DynamoDB Local keeps every table in one SQLite database, so a burst of writes anywhere (another test
 * file's, say) can make an unrelated request give up on the database lock with a 500 that, in its own words,
 * "will succeed in actual DynamoDB API". Nothing ran, so running it again is safe. This waits and runs such a
 * request again, beyond the SDK's own three attempts, so the local runtime fails only where AWS would.
 * When the attempts or the invocation's time run out, it fails the way an overloaded table does on AWS,
 * with a ThrottlingException (a 429 and Retry-After to an API caller), never a 500 or a timeout.
 */
const LOCK_TIMEOUT = /too long waiting for a lock/;
const EXTRA_ATTEMPTS = 6;

const isLockTimeout = (error: unknown): error is Error =>
  error instanceof Error && error.name === 'InternalServerError' && LOCK_TIMEOUT.test(error.message);

const throttled = (error: Error) => Object.assign(new Error(error.message, { cause: error }), { name: 'ThrottlingException' });

export const retryLockTimeouts: Pluggable<any, any> = {
  applyToStack: (stack) => {
    stack.add(
      (next, context) => async (args) => {
        if (!(context.clientName ?? '').startsWith('DynamoDB')) return next(args);
        for (let attempt = 1; ; attempt++) {
          const started = Date.now();
          try {
            return await next(args);
          } catch (error) {
            if (!isLockTimeout(error)) throw error;
            if (attempt > EXTRA_ATTEMPTS || outOfRetryTime(Date.now() - started)) throw throttled(error);
            await backoff(attempt, 100, 2000);
          }
        }
      },
      { step: 'initialize', name: 'parleyLocalLockTimeoutRetry' },
    );
  },
};

export const installEmulatorRetries = (): void => registerClientPlugin(retryLockTimeouts);
