import type { Verdict } from '../aws/queues';
import { retryDelayMs } from '../domain/channels/delivery';
import type { SendResult } from './provider';

/** A provider's answer, routed: accepted, worth another attempt (until the attempts run out), or failed for good. */
export const sendOutcome = (
  result: SendResult,
  on: {
    sent: (r: Extract<SendResult, { ok: true }>) => Promise<Verdict>;
    retry: (delayMs: number) => Promise<Verdict>;
    failed: (reason: string, accountError: boolean) => Promise<Verdict>;
    attempts: number;
  },
): Promise<Verdict> => {
  if (result.ok) return on.sent(result);
  const delay = result.retryable ? retryDelayMs(on.attempts, result.retryAfterMs) : undefined;
  return delay === undefined ? on.failed(result.reason, result.accountError ?? false) : on.retry(delay);
};
