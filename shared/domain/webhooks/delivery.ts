import { createHash } from 'node:crypto';
import { ConflictError } from '../errors';
import type { AttemptOutcome } from './classify';
import { nextDelayMs, FAST_ATTEMPTS } from './schedule';
import type { Subscription } from './subscription';
import type { Tenant } from '../auth/tenant';

export const DELIVERY_STATUSES = ['pending', 'success', 'failed', 'retrying'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export interface Attempt {
  attemptNumber: number;
  status: 'success' | 'failed';
  httpStatus?: number;
  latency: number;
  failureReason?: string;
  at: string;
}

export interface Delivery {
  deliveryId: string;
  /** The subscription's tenant (see `Subscription.workspaceId`); never shown. */
  workspaceId: Tenant;
  subscriptionId: string;
  eventId: string;
  eventType: string;
  status: DeliveryStatus;
  /** Attempts made so far (the latest attempt's number). */
  attemptNumber: number;
  httpStatus?: number;
  latency?: number;
  failureReason?: string;
  nextRetryAt?: string;
  attempts: Attempt[];
  /** The attempt number that opened the current round (1, or the first manual-retry attempt). */
  roundStartAttempt: number;
  roundStartedAt?: string;
  /** The subscription's `activatedAt` this delivery belongs to; a deactivation in between stops it. */
  subscriptionActivatedAt: string;
  /** Whether this delivery already counted towards the subscription's consecutive failures. */
  failureCounted: boolean;
  createdAt: string;
  updatedAt: string;
}

/** One delivery per (event, subscription): the id is derived from both, so fan-out retries are idempotent. */
const deliveryIdFor = (eventId: string, subscriptionId: string): string =>
  eventId.slice(0, 8) + createHash('sha256').update(`${eventId}:${subscriptionId}`).digest('hex').slice(0, 16);

/** A new delivery of one event to one subscription, due now. */
export const newDelivery = (
  event: { eventId: string; eventType: string },
  sub: Pick<Subscription, '_id' | 'workspaceId' | 'activatedAt'>,
  now: Date,
): Delivery => ({
  deliveryId: deliveryIdFor(event.eventId, sub._id),
  workspaceId: sub.workspaceId,
  subscriptionId: sub._id,
  eventId: event.eventId,
  eventType: event.eventType,
  status: 'pending',
  attemptNumber: 0,
  nextRetryAt: now.toISOString(),
  attempts: [],
  roundStartAttempt: 1,
  subscriptionActivatedAt: sub.activatedAt!,
  failureCounted: false,
  createdAt: now.toISOString(),
  updatedAt: now.toISOString(),
});

/** A delivery that makes no further attempt (its subscription stopped, or was deleted). */
export const stoppedDelivery = (d: Delivery, failureReason: string, now: Date): Delivery => ({
  ...d,
  status: 'failed',
  failureReason,
  nextRetryAt: undefined,
  updatedAt: now.toISOString(),
});

/**
 * Manual retry: a failed delivery gets one new attempt now, in a new round, so if it fails the normal
 * schedule runs again from there. Only a failed delivery qualifies.
 */
export const retriedDelivery = (d: Delivery, sub: Pick<Subscription, 'activatedAt'>, now: Date): Delivery => {
  if (d.status !== 'failed') throw new ConflictError(`Only a failed delivery can be retried; this one is ${d.status}`);
  return {
    ...d,
    status: 'pending',
    // The last attempt's result stays in `attempts`; the delivery shows none until the new attempt's.
    httpStatus: undefined,
    latency: undefined,
    failureReason: undefined,
    nextRetryAt: now.toISOString(),
    roundStartAttempt: d.attemptNumber + 1,
    roundStartedAt: undefined,
    subscriptionActivatedAt: sub.activatedAt!,
    updatedAt: now.toISOString(),
  };
};

/** An attempt's lease: longer than the worker's own timeout and shorter than the queue's visibility timeout (see wiring). */
export const LEASE_MS = 25_000;

/** A due delivery is presumed lost once it is this late and nobody holds its lease. */
export const STALL_GRACE_MS = 2 * 60_000;

export const isStalled = (d: Pick<Delivery, 'nextRetryAt' | 'createdAt'> & { leaseUntil?: number }, now: number): boolean =>
  Date.parse(d.nextRetryAt ?? d.createdAt) < now - STALL_GRACE_MS && (d.leaseUntil === undefined || d.leaseUntil < now);

export interface AttemptResult {
  attempt: Attempt;
  status: DeliveryStatus;
  nextRetryAt?: string;
  /** The delivery's fast schedule just ran out without a success: count one consecutive failure. */
  countFailure: boolean;
  /** A success resets the subscription's failure count. */
  resetFailures: boolean;
  /** 410: the subscription is deactivated at once. */
  gone: boolean;
}

/** The delivery state machine for one finished attempt (contract "Delivery status", docs/guide/webhooks.md). */
export const afterAttempt = (
  d: Pick<Delivery, 'attemptNumber' | 'roundStartAttempt' | 'roundStartedAt' | 'failureCounted'>,
  outcome: AttemptOutcome,
  latency: number,
  now: Date,
  random?: () => number,
): AttemptResult => {
  const attemptNumber = d.attemptNumber + 1;
  const at = now.toISOString();
  if (outcome.kind === 'success') {
    return {
      attempt: { attemptNumber, status: 'success', httpStatus: outcome.httpStatus, latency, at },
      status: 'success',
      countFailure: false,
      resetFailures: true,
      gone: false,
    };
  }
  const attempt: Attempt = {
    attemptNumber,
    status: 'failed',
    httpStatus: outcome.httpStatus,
    latency,
    failureReason: outcome.failureReason,
    at,
  };
  const inRound = attemptNumber - d.roundStartAttempt + 1;
  const countFailure = !d.failureCounted && inRound >= FAST_ATTEMPTS;
  if (outcome.kind === 'terminal') return { attempt, status: 'failed', countFailure: false, resetFailures: false, gone: true };
  const roundStartedAt = d.roundStartedAt ? Date.parse(d.roundStartedAt) : now.getTime();
  const delay = nextDelayMs({ attempt: inRound, roundStartedAt, now: now.getTime(), retryAfterMs: outcome.retryAfterMs, random });
  if (delay === null) return { attempt, status: 'failed', countFailure, resetFailures: false, gone: false };
  return {
    attempt,
    status: 'retrying',
    nextRetryAt: new Date(now.getTime() + delay).toISOString(),
    countFailure,
    resetFailures: false,
    gone: false,
  };
};

/** The delivery log's view: everything but the attempts and internal bookkeeping (the payload is stored once per event, not here). */
export const publicDelivery = (d: Delivery) => ({
  deliveryId: d.deliveryId,
  subscriptionId: d.subscriptionId,
  eventId: d.eventId,
  eventType: d.eventType,
  status: d.status,
  httpStatus: d.httpStatus ?? null,
  latency: d.latency ?? null,
  attemptNumber: d.attemptNumber,
  nextRetryAt: d.nextRetryAt ?? null,
  nextAttemptAt: d.status === 'pending' || d.status === 'retrying' ? (d.nextRetryAt ?? d.createdAt) : null,
  failureReason: d.failureReason ?? null,
  createdAt: d.createdAt,
  updatedAt: d.updatedAt,
});

/** One delivery's view: the log's, with every attempt made so far. */
export const deliveryWithAttempts = (d: Delivery) => ({ ...publicDelivery(d), attempts: d.attempts });
