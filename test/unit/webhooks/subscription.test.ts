import { describe, expect, it } from 'vitest';
import { afterAttempt } from '../../../shared/domain/webhooks/delivery';
import { matchesAny } from '../../../shared/domain/webhooks/event-patterns';
import { liveTenant } from '../../../shared/domain/auth/tenant';
import { receives, type Subscription } from '../../../shared/domain/webhooks/subscription';
import { CreateSubscription } from '../../../functions/http/webhooks/schemas';
import { isValidPattern } from '../../../shared/events/types';

const sub = (over: Partial<Subscription> = {}): Subscription => ({
  _id: 'a'.repeat(24),
  workspaceId: liveTenant('b'.repeat(24)),
  url: 'https://example.com/',
  events: ['inbox.*'],
  active: true,
  secret: 's'.repeat(20),
  consecutiveFailures: 0,
  activatedAt: '2026-01-01T00:00:00.000Z',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...over,
});

describe('event patterns', () => {
  it('accepts catalog names, * and whole-segment prefixes that name real events', () => {
    for (const p of ['*', 'inbox.*', 'inbox.conversation.*', 'crm.lead.stage_changed']) expect(isValidPattern(p)).toBe(true);
    for (const p of ['inbox', 'inbox.conversation.exploded', 'nope.*', 'inbox*', 'inb.*', '']) expect(isValidPattern(p)).toBe(false);
  });

  it('matches wildcards by whole segments only', () => {
    expect(matchesAny(['inbox.*'], 'inbox.message.received')).toBe(true);
    expect(matchesAny(['inbox.conversation.*'], 'inbox.message.received')).toBe(false);
    expect(matchesAny(['*'], 'crm.lead.created')).toBe(true);
    expect(matchesAny(['crm.lead.created'], 'crm.lead.created_extra')).toBe(false);
  });
});

describe('who receives an event', () => {
  it('an active subscription receives matching events that occurred after it became active', () => {
    expect(receives(sub(), 'inbox.message.received', '2026-01-01T00:00:01.000Z')).toBe(true);
    expect(receives(sub(), 'crm.lead.created', '2026-01-01T00:00:01.000Z')).toBe(false);
    expect(receives(sub(), 'inbox.message.received', '2025-12-31T23:59:59.000Z')).toBe(false);
    expect(receives(sub({ active: false }), 'inbox.message.received', '2026-01-01T00:00:01.000Z')).toBe(false);
  });

  it('normalises the URL and de-duplicates events on creation', () => {
    const parsed = CreateSubscription.parse({ url: 'https://EXAMPLE.com:443/hook', events: ['inbox.*', 'inbox.*'] });
    expect(parsed).toEqual({ url: 'https://example.com/hook', events: ['inbox.*'] });
  });
});

describe('the delivery state machine', () => {
  const fresh = { attemptNumber: 0, roundStartAttempt: 1, roundStartedAt: undefined, failureCounted: false };
  const now = new Date('2026-01-01T00:00:00Z');

  it('a success ends the delivery and resets the failure count', () => {
    expect(afterAttempt(fresh, { kind: 'success', httpStatus: 200 }, 12, now)).toMatchObject({
      status: 'success',
      resetFailures: true,
      countFailure: false,
    });
  });

  it('a 410 fails it at once and deactivates the subscription', () => {
    const r = afterAttempt(fresh, { kind: 'terminal', failureReason: 'gone_410', httpStatus: 410 }, 5, now);
    expect(r).toMatchObject({ status: 'failed', gone: true });
    expect(r.nextRetryAt).toBeUndefined();
  });

  it('counts one consecutive failure when the fast schedule runs out, and only once', () => {
    const fail = { kind: 'retry', failureReason: 'http_500', httpStatus: 500 } as const;
    expect(afterAttempt({ ...fresh, attemptNumber: 3 }, fail, 5, now).countFailure).toBe(false);
    const fifth = afterAttempt({ ...fresh, attemptNumber: 4 }, fail, 5, now);
    expect(fifth).toMatchObject({ status: 'retrying', countFailure: true });
    expect(afterAttempt({ ...fresh, attemptNumber: 5, failureCounted: true }, fail, 5, now).countFailure).toBe(false);
  });

  it('fails the delivery for good after the last attempt of the round', () => {
    const fail = { kind: 'retry', failureReason: 'timeout' } as const;
    const r = afterAttempt(
      { ...fresh, attemptNumber: 11, roundStartedAt: '2025-12-31T00:00:00Z', failureCounted: true },
      fail,
      10_000,
      now,
    );
    expect(r.status).toBe('failed');
    expect(r.nextRetryAt).toBeUndefined();
  });

  it('a manual retry round restarts the schedule from its first attempt', () => {
    const fail = { kind: 'retry', failureReason: 'http_500', httpStatus: 500 } as const;
    const r = afterAttempt(
      { attemptNumber: 12, roundStartAttempt: 13, roundStartedAt: now.toISOString(), failureCounted: true },
      fail,
      5,
      now,
    );
    expect(r).toMatchObject({ status: 'retrying', attempt: { attemptNumber: 13 } });
    expect(Date.parse(r.nextRetryAt!) - now.getTime()).toBe(1000);
  });
});
