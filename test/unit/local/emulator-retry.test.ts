import { describe, expect, it } from 'vitest';
import { retryLockTimeouts } from '../../../infra/local/emulator-retry';
import { isContention } from '../../../shared/data/retry';
import { withDeadline } from '../../../shared/observability/deadline';

type Middleware = (next: (args: unknown) => Promise<unknown>, context: { clientName?: string }) => (args: unknown) => Promise<unknown>;

const middleware = (): Middleware => {
  let added: Middleware | undefined;
  retryLockTimeouts.applyToStack({ add: (mw: Middleware) => (added = mw) } as never);
  return added!;
};

const failure = (name: string, message: string) => Object.assign(new Error(message), { name });
const lockTimeout = () =>
  failure(
    'InternalServerError',
    'This action timed out because it too long waiting for a lock. This request will succeed in actual DynamoDB API',
  );

/** A `next` that throws the given errors in turn, then answers. */
const failingThen = (errors: Error[]) => {
  let calls = 0;
  const next = async () => {
    const error = errors[calls++];
    if (error) throw error;
    return { output: 'ok' };
  };
  return { next, calls: () => calls };
};

describe("DynamoDB Local's lock timeouts", () => {
  it('are run again until the request goes through', async () => {
    const { next, calls } = failingThen([lockTimeout(), lockTimeout()]);
    await expect(middleware()(next, { clientName: 'DynamoDBClient' })({})).resolves.toEqual({ output: 'ok' });
    expect(calls()).toBe(3);
  });

  it('give up after six more attempts as a throttled request, with the emulator message', async () => {
    const { next, calls } = failingThen(Array.from({ length: 10 }, lockTimeout));
    const failed = middleware()(next, { clientName: 'DynamoDBClient' })({});
    await expect(failed).rejects.toThrow(/waiting for a lock/);
    await expect(failed).rejects.toMatchObject({ name: 'ThrottlingException' });
    expect(calls()).toBe(7);
  }, 30_000);

  it('give up at once when the invocation has too little time left to wait, so it answers 429, not a timeout', async () => {
    const { next, calls } = failingThen([lockTimeout(), lockTimeout()]);
    const failed = withDeadline({ getRemainingTimeInMillis: () => 5000 }, () => middleware()(next, { clientName: 'DynamoDBClient' })({}));
    const error = await failed.catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ThrottlingException' });
    expect(isContention(error)).toBe(true);
    expect(calls()).toBe(1);
  });

  it('leave every other error, and other services, alone', async () => {
    const other = failingThen([failure('InternalServerError', 'something else broke')]);
    await expect(middleware()(other.next, { clientName: 'DynamoDBClient' })({})).rejects.toThrow('something else broke');
    expect(other.calls()).toBe(1);
    const sqs = failingThen([lockTimeout()]);
    await expect(middleware()(sqs.next, { clientName: 'SQSClient' })({})).rejects.toThrow(/waiting for a lock/);
    expect(sqs.calls()).toBe(1);
  });
});
