import { AsyncLocalStorage } from 'node:async_hooks';
import type { Pluggable } from '@smithy/types';
import { registerClientPlugin } from '../../shared/aws/plugins';
import { log } from '../../shared/log';

/**
 * An invocation that used more than half its time is logged with its AWS calls still unanswered, then its
 * slowest, each with when it started and how long it took, so a timeout in a loaded run says whether an
 * emulator held it up or this process did. X-Ray answers the same question on AWS. Times are read off the
 * monotonic clock: a test that moves `Date` (a fresh rate-limit window) does not make an invocation slow.
 */
interface Call {
  command: string;
  startedAt: number;
  tookMs?: number;
}

const SHOWN_CALLS = 8;
const invocations = new AsyncLocalStorage<Call[]>();

export const timeCalls: Pluggable<any, any> = {
  applyToStack: (stack) => {
    stack.add(
      (next, context) => async (args) => {
        const calls = invocations.getStore();
        if (!calls) return next(args);
        const call: Call = {
          command: `${context.clientName}.${context.commandName}`.replace(/(Client|Command)\b/g, ''),
          startedAt: performance.now(),
        };
        calls.push(call);
        try {
          return await next(args);
        } finally {
          call.tookMs = performance.now() - call.startedAt;
        }
      },
      { step: 'initialize', name: 'parleyLocalCallTiming', priority: 'high' },
    );
  },
};

export const installSlowInvocationLog = (): void => registerClientPlugin(timeCalls);

/** Which invocation: its function, and the id its logs carry (an API request's own, else Lambda's). */
export interface InvocationId {
  function: string;
  requestId: string;
}

/** Runs one invocation, logging it if it took more than half of `timeoutMs`. */
export const timedInvocation = async <T>(id: InvocationId, timeoutMs: number, fn: () => Promise<T>): Promise<T> => {
  const calls: Call[] = [];
  const started = performance.now();
  try {
    return await invocations.run(calls, fn);
  } finally {
    const ms = performance.now() - started;
    if (ms > timeoutMs / 2) {
      // Start and end are rounded, and the duration taken between them, so a call that began after another ended shows so.
      const slowest = calls
        .map((c) => {
          const atMs = Math.round(c.startedAt - started);
          const endMs = Math.round(c.startedAt - started + (c.tookMs ?? performance.now() - c.startedAt));
          return { command: c.command, atMs, tookMs: endMs - atMs, ended: c.tookMs !== undefined };
        })
        .sort((a, b) => Number(a.ended) - Number(b.ended) || b.tookMs - a.tookMs)
        .slice(0, SHOWN_CALLS);
      log.warn('slow invocation', { ...id, ms: Math.round(ms), timeoutMs, awsCalls: calls.length, slowest });
    }
  }
};
