import { expect, it, vi } from 'vitest';
import { timeCalls, timedInvocation } from '../../../infra/local/slow-invocations';
import { useCapturedLogs } from '../../support/captured-logs';

type Middleware = (
  next: (args: unknown) => Promise<unknown>,
  context: { clientName?: string; commandName?: string },
) => (args: unknown) => Promise<unknown>;

const middleware = (() => {
  let added: Middleware | undefined;
  timeCalls.applyToStack({ add: (mw: Middleware) => (added = mw) } as never);
  return added!;
})();

/** One DynamoDB call through the timing middleware that takes `ms`. */
const call = (command: string, ms: number) =>
  middleware(() => new Promise((answer) => setTimeout(() => answer({ output: {} }), ms)), {
    clientName: 'DynamoDBClient',
    commandName: `${command}Command`,
  })({});

const logs = useCapturedLogs();

it('an invocation over half its timeout is logged with its unanswered calls, then its slowest', async () => {
  let unanswered: Promise<unknown> | undefined;
  await timedInvocation({ function: 'functions-http-slow', requestId: 'req-1' }, 400, async () => {
    await call('GetItem', 10);
    await call('Query', 250);
    unanswered = call('PutItem', 600);
  });
  expect(logs).toEqual([
    expect.objectContaining({
      level: 'WARN',
      message: 'slow invocation',
      function: 'functions-http-slow',
      requestId: 'req-1',
      timeoutMs: 400,
      awsCalls: 3,
    }),
  ]);
  const [put, query, get] = logs[0]!.slowest as { command: string; atMs: number; tookMs: number; ended: boolean }[];
  expect(query).toMatchObject({ command: 'DynamoDB.Query', ended: true });
  expect(query!.tookMs).toBeGreaterThanOrEqual(240);
  expect(put).toMatchObject({ command: 'DynamoDB.PutItem', ended: false });
  expect(put!.atMs).toBeGreaterThanOrEqual(query!.atMs + query!.tookMs);
  expect(get).toMatchObject({ command: 'DynamoDB.GetItem', ended: true, atMs: expect.any(Number) });
  expect(get!.tookMs).toBeLessThan(query!.tookMs);
  await unanswered;
});

it('an invocation within half its timeout, and calls outside any invocation, are not logged', async () => {
  await timedInvocation({ function: 'functions-http-quick', requestId: 'req-2' }, 10_000, () => call('GetItem', 10));
  await call('Query', 10);
  expect(logs).toEqual([]);
});

it('a test moving the wall clock during an invocation does not make it slow', async () => {
  vi.useFakeTimers({ toFake: ['Date'] });
  try {
    await timedInvocation({ function: 'functions-schedules-quick', requestId: 'req-3' }, 10_000, async () => {
      vi.setSystemTime(Date.now() + 15 * 60_000);
      await call('Query', 10);
    });
  } finally {
    vi.useRealTimers();
  }
  expect(logs).toEqual([]);
});
