import { afterEach, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import { onInvoke, preload } from '../../../infra/local/lambda';
import { startSchedules } from '../../../infra/local/scheduler';
import type { ScheduleSpec } from '../../../functions/wiring/types';

// A function that makes no AWS call for a scheduler's event (its detail names no call).
const minutely: ScheduleSpec = {
  name: 'tick',
  everyMinutes: 1,
  target: { handler: 'test/support/fixtures/aws-calls.ts', access: { table: 'read' } },
};

// Loaded once, so a timer that fires reaches the runtime within the same turn of the event loop.
beforeAll(() => preload([minutely.target]));

let ticks: string[];
let stopListening: () => void;
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
  ticks = [];
  stopListening = onInvoke((_name, event) => {
    ticks.push((event as { detail: { schedule: string } }).detail.schedule);
    return undefined;
  });
});
afterEach(() => {
  stopListening();
  vi.useRealTimers();
});

/** Moves the schedules' clock on, then lets the invocations it started reach the runtime. */
const advance = async (ms: number) => {
  vi.advanceTimersByTime(ms);
  await new Promise((r) => setImmediate(r));
};

it('runs a schedule at its deployed rate', async () => {
  const stop = startSchedules([minutely]);
  await advance(59_000);
  expect(ticks).toEqual([]);
  await advance(1_000);
  expect(ticks).toEqual(['tick']);
  stop();
});

it('runs it every `everySeconds` instead when given (PARLEY_SCHEDULE_SECONDS)', async () => {
  const stop = startSchedules([minutely], 5);
  await advance(10_000);
  expect(ticks).toEqual(['tick', 'tick']);
  stop();
  await advance(60_000);
  expect(ticks).toEqual(['tick', 'tick']);
});
