import { describe, expect, it, vi } from 'vitest';
import { InvocationTimedOut, invoke } from '../../infra/local/lambda';
import type { FunctionKind, FunctionSpec } from '../../functions/wiring/types';
import type { SleepyEvent } from '../support/fixtures/sleepy-function';

const sleepy = (sizing: Pick<FunctionSpec, 'memoryMb' | 'timeoutSeconds'> = {}): FunctionSpec => ({
  handler: 'test/support/fixtures/sleepy-function.ts',
  access: { table: 'read' },
  ...sizing,
});
const run = (spec: FunctionSpec, kind: FunctionKind, event: SleepyEvent) =>
  invoke<{ memoryLimitInMB: string; remainingMs: number }>(spec, { kind }, event);

describe('a local invocation', () => {
  it("is given the memory and timeout its kind deploys with, or its spec's", async () => {
    const http = await run(sleepy(), 'http', { workMs: 0 });
    expect(http.memoryLimitInMB).toBe('1024');
    expect(http.remainingMs).toBeGreaterThan(5000);
    expect(http.remainingMs).toBeLessThanOrEqual(10_000);

    const schedule = await run(sleepy(), 'schedule', { workMs: 0 });
    expect(schedule.memoryLimitInMB).toBe('512');
    expect(schedule.remainingMs).toBeGreaterThan(60_000);

    const sized = await run(sleepy({ memoryMb: 256, timeoutSeconds: 3 }), 'queue', { workMs: 0 });
    expect(sized).toEqual({ memoryLimitInMB: '256', remainingMs: expect.any(Number) });
    expect(sized.remainingMs).toBeLessThanOrEqual(3000);
  });

  it('fails as Lambda does once it outlives its timeout, without waiting for its work', async () => {
    const started = performance.now();
    const outcome = run(sleepy({ timeoutSeconds: 1 }), 'queue', { workMs: 5000 });
    await expect(outcome).rejects.toBeInstanceOf(InvocationTimedOut);
    await expect(outcome).rejects.toThrow('Task timed out after 1.00 seconds');
    expect(performance.now() - started).toBeLessThan(4000);
  });

  it('answers when its work ends inside the timeout', async () => {
    await expect(run(sleepy({ timeoutSeconds: 1 }), 'queue', { workMs: 200 })).resolves.toMatchObject({ memoryLimitInMB: '512' });
  });

  it('keeps its deadline when the wall clock jumps during it', async () => {
    const outcome = run(sleepy({ timeoutSeconds: 5 }), 'event', { workMs: 300 });
    await new Promise((r) => setTimeout(r, 100));
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 60 * 60_000 });
    try {
      expect((await outcome).remainingMs).toBeGreaterThan(4000);
    } finally {
      vi.useRealTimers();
    }
  });
});
