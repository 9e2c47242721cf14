import { attemptWrites } from '../analytics/record';
import { config } from '../config';
import { log } from '../log';
import { addContext } from '../observability/context';
import { metric } from '../observability/metrics';
import { afterAttempt, stoppedDelivery, type Delivery } from '../domain/webhooks/delivery';
import { DEACTIVATE_AFTER_FAILURES, type Subscription } from '../domain/webhooks/subscription';
import { claimDelivery, deliveriesInStatus, getDelivery, saveDelivery, type DeliveryItem } from '../data/webhook-deliveries';
import { countSubscriptionFailure, deactivateSubscription, getSubscription, subscriptionUpdate } from '../data/webhook-subscriptions';
import type { Write } from '../data/transact';
import { parkInDlq, type DeliveryMessage } from './queue';
import { postWebhook } from './send';
import { deliveryHeaders } from '../domain/webhooks/sign';

/** Longer than the worker's own timeout and shorter than the queue's visibility timeout (see wiring). */
export const LEASE_MS = 25_000;
/** A message that wakes this early is close enough to its attempt time. */
const EARLY_MS = 25;

/** What to do with the message: delete it, or make it reappear after `delayMs`. */
export type Verdict = { ack: true } | { ack: false; delayMs: number };
const ACK: Verdict = { ack: true };

/** Ends every pending or retrying delivery of a subscription that is no longer active. */
export const stopPendingDeliveries = async (sub: Pick<Subscription, 'workspaceId' | '_id'>, now = new Date()): Promise<void> => {
  for (const status of ['pending', 'retrying'] as const) {
    const open = await deliveriesInStatus(sub.workspaceId, sub._id, status);
    await Promise.all(open.map((d) => saveDelivery(d, stoppedDelivery(d, 'subscription_inactive', now))));
  }
};

/** After a counted failure: the 100th in a row ends the subscription's active period. */
const maybeDeactivate = async (sub: Subscription, now: Date): Promise<void> => {
  const fresh = await getSubscription(sub.workspaceId, sub._id);
  if (!fresh?.active || fresh.activatedAt !== sub.activatedAt || fresh.consecutiveFailures < DEACTIVATE_AFTER_FAILURES) return;
  if (await deactivateSubscription(fresh, 'consecutive_failures', now)) {
    log.warn('webhook subscription deactivated', { tenant: sub.workspaceId, subscriptionId: sub._id, reason: 'consecutive_failures' });
    await stopPendingDeliveries(fresh, now);
  }
};

/** Makes one attempt of a claimed delivery and records it; returns the delivery as saved, or undefined if it moved on. */
const attempt = async (d: DeliveryItem, sub: Subscription): Promise<Delivery | undefined> => {
  const startedAt = new Date();
  const attemptNumber = d.attemptNumber + 1;
  addContext({ attempt: attemptNumber });
  const headers = deliveryHeaders(sub.secret, d.payload, {
    eventId: d.eventId,
    eventType: d.eventType,
    deliveryId: d.deliveryId,
    attemptNumber,
    timestamp: Math.floor(startedAt.getTime() / 1000),
  });
  const { outcome, latency } = await postWebhook(sub.url, d.payload, headers, { allowLoopback: config().WEBHOOK_ALLOW_PRIVATE_TARGETS });
  const now = new Date();
  const roundStartedAt = d.roundStartedAt ?? startedAt.toISOString();
  const result = afterAttempt({ ...d, roundStartedAt }, outcome, latency, now);
  const after: Delivery = {
    ...d,
    status: result.status,
    attemptNumber,
    httpStatus: result.attempt.httpStatus,
    latency,
    failureReason: result.attempt.failureReason,
    nextRetryAt: result.nextRetryAt,
    attempts: [...d.attempts, { ...result.attempt, at: startedAt.toISOString() }],
    roundStartedAt,
    failureCounted: d.failureCounted || result.countFailure,
    updatedAt: now.toISOString(),
  };
  const extra: Write[] = await attemptWrites(d.workspaceId, after.status, latency, now);
  if (result.resetFailures && sub.consecutiveFailures > 0) extra.push(subscriptionUpdate(sub, { consecutiveFailures: 0 }));
  if (result.countFailure) extra.push(countSubscriptionFailure(sub));
  if (result.gone) {
    const at = now.toISOString();
    extra.push(subscriptionUpdate(sub, { active: false, deactivatedAt: at, deactivationReason: 'gone_410', updatedAt: at }));
  }
  if (!(await saveDelivery(d, after, extra))) return undefined;
  log.info('webhook delivery attempt', { subscriptionId: sub._id, status: after.status, httpStatus: after.httpStatus, latencyMs: latency, failureReason: after.failureReason });
  metric.deliveryAttempt(after.status, attemptNumber, latency);
  if (result.gone) await stopPendingDeliveries(sub, now);
  if (result.countFailure) await maybeDeactivate(sub, now);
  return after;
};

/** Why a message could not take the lease: decides whether to drop it or bring it back later. */
const unclaimed = async (m: DeliveryMessage, carrier: string, now: number): Promise<Verdict> => {
  const d = await getDelivery(m.workspaceId, m.subscriptionId, m.deliveryId);
  if (!d || d.status === 'success' || d.status === 'failed') return ACK;
  if (d.leaseUntil !== undefined && d.leaseUntil > now && d.carrier !== carrier) return { ack: false, delayMs: d.leaseUntil - now + 1000 };
  // Another message carries this delivery's schedule: this one is a duplicate.
  if (d.carrier && d.carrier !== carrier) return ACK;
  return { ack: false, delayMs: Date.parse(d.nextRetryAt ?? d.createdAt) - now };
};

/**
 * Visibility timeouts are whole seconds and are rounded down, so a message may come back up to a second
 * early; the worker then waits out that remainder so attempts keep the schedule's exact spacing.
 */
const MAX_ALIGN_MS = 1000;

/**
 * Handles one delivery message. Idempotent: a duplicate or stale message never makes a second attempt,
 * because an attempt needs the lease on a due delivery, and its record needs the attempt number unchanged.
 */
export const handleDeliveryMessage = async (m: DeliveryMessage, carrier: string): Promise<Verdict> => {
  let d = await claimDelivery(m, carrier, Date.now(), Date.now() + EARLY_MS, LEASE_MS);
  if (!d) {
    const verdict = await unclaimed(m, carrier, Date.now());
    if (verdict.ack || verdict.delayMs > MAX_ALIGN_MS) return verdict;
    await new Promise((r) => setTimeout(r, Math.max(0, verdict.delayMs)));
    d = await claimDelivery(m, carrier, Date.now(), Date.now() + EARLY_MS, LEASE_MS);
    if (!d) return unclaimed(m, carrier, Date.now());
  }
  addContext({ eventId: d.eventId, eventType: d.eventType });
  const sub = await getSubscription(m.workspaceId, m.subscriptionId);
  if (!sub?.active || sub.activatedAt !== d.subscriptionActivatedAt) {
    await saveDelivery(d, stoppedDelivery(d, sub ? 'subscription_inactive' : 'subscription_deleted', new Date()));
    return ACK;
  }
  const after = await attempt(d, sub);
  if (after?.status === 'retrying') return { ack: false, delayMs: Date.parse(after.nextRetryAt!) - Date.now() };
  if (after?.status === 'failed') await parkInDlq(m, after.failureReason ?? 'failed');
  return ACK;
};
