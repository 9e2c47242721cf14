import { onTestFinished, vi } from 'vitest';
import { WINDOW_SECONDS } from '../../shared/domain/auth/rate-limit';

const WINDOW_MS = WINDOW_SECONDS * 1000;
/** The first window no test of this file has used: two after the wall clock's, so none has begun yet. */
let next = Math.floor(Date.now() / WINDOW_MS) + 2;

/**
 * Rate limits count per fixed 15-minute window, and a test file's stack runs in its own process: this sets
 * the process's clock (`Date` only; it keeps running) one second into a window that no earlier call used,
 * so all of the calling test's requests fall in one window wherever the wall clock is. `windows` reserves
 * that many, for a test that moves on to the next (`vi.setSystemTime`). The real clock is back after the test.
 */
export const inFreshRateWindow = (windows = 1): void => {
  vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true, now: next * WINDOW_MS + 1000 });
  next += windows;
  onTestFinished(() => void vi.useRealTimers());
};
