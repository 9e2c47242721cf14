import type { Tenant } from '../domain/auth/tenant';
import type { Verdict } from '../domain/verdict';
import { log } from '../log';
import { metric } from '../observability/metrics';
import { retryDelayMs } from '../domain/channels/delivery';
import type { SendResult } from './provider';

/** A provider's answer, logged (never with its content or the account's secrets) and routed: accepted, worth another attempt (until the attempts run out), or failed for good. */
export const sendOutcome = (
  result: SendResult,
  about: { tenant: Tenant; channelId: string; key: string; kind: 'reply' | 'broadcast'; recipientId?: string },
  on: {
    sent: (r: Extract<SendResult, { ok: true }>) => Promise<Verdict>;
    retry: (delayMs: number) => Promise<Verdict>;
    failed: (reason: string, accountError: boolean) => Promise<Verdict>;
    attempts: number;
  },
): Promise<Verdict> => {
  log.info('channel send', { ...about, attempt: on.attempts, ...(result.ok ? { ok: true } : { ok: false, reason: result.reason }) });
  const delay = result.ok || !result.retryable ? undefined : retryDelayMs(on.attempts, result.retryAfterMs);
  metric.channelSend(about.kind, result.ok ? 'sent' : delay === undefined ? 'failed' : 'retrying');
  if (result.ok) return on.sent(result);
  return delay === undefined ? on.failed(result.reason, result.accountError ?? false) : on.retry(delay);
};
