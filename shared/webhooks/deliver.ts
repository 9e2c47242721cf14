import { ACK, type Verdict } from '../domain/verdict';
import { config } from '../config';
import { log } from '../log';
import { addContext } from '../observability/context';
import { metric } from '../observability/metrics';
import { afterAttempt, LEASE_MS, stoppedDelivery, type Delivery } from '../domain/webhooks/delivery';
import { DEACTIVATE_AFTER_FAILURES, validPreviousSecrets, type Subscription } from '../domain/webhooks/subscription';
import {
  claimDelivery,
  deliveriesInStatus,
  deliveryRead,
  getDelivery,
  responseBodyWrite,
  saveDelivery,
  type DeliveryItem,
} from '../data/webhook-deliveries';
import {
  countSubscriptionFailure,
  deactivateSubscription,
  getSubscription,
  subscriptionRead,
  subscriptionUpdate,
} from '../data/webhook-subscriptions';
import { batchGetJoined } from '../data/batch-get';
import type { Write } from '../data/transact';
import { direct, type Unit } from '../data/unit';
import { eventPayload, eventPayloadRead } from '../data/outbox';
import { DEFAULT_TIMEZONE, getWorkspace, workspaceRead } from '../data/workspaces';
import { tenantParts } from '../domain/auth/tenant';
import type { Workspace } from '../domain/auth/workspace';
import { parkInDlq, type DeliveryMessage } from './queue';
import { tallyAttempt } from './attempt-tallies';
import { postWebhook } from '../outbound/https';
import { deliveryHeaders } from '../domain/webhooks/sign';

/** A message that wakes this early is close enough to its attempt time. */
const EARLY_MS = 25;
/** The worker's own timeout (see wiring): a lease held for less than this no longer covers an attempt. */
const ATTEMPT_MS = 20_000;

/** Ends every pending or retrying delivery of a subscription that is no longer active. */
export const stopPendingDeliveries = async (
  unit: Unit,
  sub: Pick<Subscription, 'workspaceId' | '_id'>,
  now = new Date(),
): Promise<void> => {
  for (const status of ['pending', 'retrying'] as const) {
    const open = await deliveriesInStatus(sub.workspaceId, sub._id, status);
    await Promise.all(open.map((d) => saveDelivery(unit, d, stoppedDelivery(d, 'subscription_inactive', now))));
  }
};

/** After a counted failure: the 100th in a row ends the subscription's active period. */
const maybeDeactivate = async (unit: Unit, sub: Subscription, now: Date): Promise<void> => {
  const fresh = await getSubscription(sub.workspaceId, sub._id);
  if (!fresh?.active || fresh.activatedAt !== sub.activatedAt || fresh.consecutiveFailures < DEACTIVATE_AFTER_FAILURES) return;
  if (await deactivateSubscription(fresh, 'consecutive_failures', now)) {
    log.warn('webhook subscription deactivated', { tenant: sub.workspaceId, subscriptionId: sub._id, reason: 'consecutive_failures' });
    await stopPendingDeliveries(unit, fresh, now);
  }
};

/** Makes one attempt of a claimed delivery and records it; returns the delivery as saved, or undefined if it moved on. */
const attempt = async (unit: Unit, d: DeliveryItem, { sub, payload, timezone }: AttemptInputs): Promise<Delivery | undefined> => {
  const startedAt = new Date();
  const attemptNumber = d.attemptNumber + 1;
  addContext({ attempt: attemptNumber });
  const headers = deliveryHeaders(
    sub.secret,
    payload,
    {
      eventId: d.eventId,
      eventType: d.eventType,
      deliveryId: d.deliveryId,
      attemptNumber,
      timestamp: Math.floor(startedAt.getTime() / 1000),
    },
    validPreviousSecrets(sub, startedAt),
  );
  const { outcome, latency, responseBody } = await postWebhook(sub.url, payload, headers, {
    allowLoopback: config().WEBHOOK_ALLOW_PRIVATE_TARGETS,
  });
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
  const extra: Write[] = [];
  if (result.resetFailures && sub.consecutiveFailures > 0) extra.push(subscriptionUpdate(sub, { consecutiveFailures: 0 }));
  if (result.countFailure) extra.push(countSubscriptionFailure(sub));
  if (result.gone) {
    const at = now.toISOString();
    extra.push(subscriptionUpdate(sub, { active: false, deactivatedAt: at, deactivationReason: 'gone_410', updatedAt: at }));
  }
  // A retry keeps the lease for the same carrier until its next attempt is over, so that attempt needs no claim.
  const leaseUntil = after.nextRetryAt && after.status === 'retrying' ? Date.parse(after.nextRetryAt) + LEASE_MS : undefined;
  // The body goes first under its attempt's number: a crash before the record leaves it to be overwritten by the attempt made again.
  if (responseBody?.length) await unit.writeAlone(responseBodyWrite(d, attemptNumber, responseBody));
  if (!(await saveDelivery(unit, d, after, extra, leaseUntil))) return undefined;
  tallyAttempt({ tenant: d.workspaceId, timezone, status: after.status, latencyMs: latency, at: now });
  log.info('webhook delivery attempt', {
    subscriptionId: sub._id,
    status: after.status,
    httpStatus: after.httpStatus,
    latencyMs: latency,
    failureReason: after.failureReason,
  });
  metric.deliveryAttempt(after.status, attemptNumber, latency);
  if (result.gone) await stopPendingDeliveries(unit, sub, now);
  if (result.countFailure) await maybeDeactivate(unit, sub, now);
  return after;
};

/** The delivery a message names, as the delivery records name it. */
const refOf = (m: DeliveryMessage) => ({ workspaceId: m.tenant, subscriptionId: m.subscriptionId, deliveryId: m.deliveryId });

/** Why a message could not take the lease: decides whether to drop it or bring it back later. */
const unclaimed = async (m: DeliveryMessage, carrier: string, now: number): Promise<Verdict> => {
  const d = await getDelivery(m.tenant, m.subscriptionId, m.deliveryId);
  if (!d || d.status === 'success' || d.status === 'failed') return ACK;
  // A lease on a retry not yet due only marks who carries its schedule; on a due delivery it is an attempt under way.
  const due = Date.parse(d.nextRetryAt ?? d.createdAt) <= now;
  if (due && d.leaseUntil !== undefined && d.leaseUntil > now && d.carrier !== carrier)
    return { ack: false, delayMs: d.leaseUntil - now + 1000 };
  // Another message carries this delivery's schedule: this one is a duplicate.
  if (d.carrier && d.carrier !== carrier) return ACK;
  return { ack: false, delayMs: Date.parse(d.nextRetryAt ?? d.createdAt) - now };
};

/**
 * A retry's message asks to come back this much before the retry is due (visibility timeouts are whole
 * seconds, rounded up, so it comes back up to this early), and the worker waits out the remainder, so
 * attempts keep the schedule's exact spacing.
 */
const MAX_ALIGN_MS = 1000;

/** Whether `carrier` already holds a lease on the due delivery that outlasts an attempt (taken at its creation or last attempt). */
const holds = (d: DeliveryItem, carrier: string, now: number): boolean =>
  (d.status === 'pending' || d.status === 'retrying') &&
  d.carrier === carrier &&
  (d.leaseUntil ?? 0) >= now + ATTEMPT_MS &&
  Date.parse(d.nextRetryAt ?? d.createdAt) <= now + EARLY_MS;

/**
 * What an attempt needs besides the delivery: its subscription as it is now, the event's stored body, and the
 * workspace's timezone (the attempt's analytics day).
 */
interface Inputs {
  sub?: Subscription;
  payload?: string;
  timezone: string;
}
type AttemptInputs = Inputs & Required<Pick<Inputs, 'sub' | 'payload'>>;

const timezoneOf = (workspace: Workspace | undefined) => workspace?.timezone ?? DEFAULT_TIMEZONE;

const attemptInputs = async (m: DeliveryMessage, eventId: string): Promise<Inputs> => {
  const [sub, payload, workspace] = await Promise.all([
    getSubscription(m.tenant, m.subscriptionId),
    eventPayload(m.tenant, eventId),
    getWorkspace(tenantParts(m.tenant).workspaceId),
  ]);
  return { sub, payload, timezone: timezoneOf(workspace) };
};

/**
 * The delivery, its subscription, its event's body and its workspace in one consistent BatchGetItem: one round
 * trip, shared with the other messages of the batch.
 */
const readTogether = async (m: DeliveryMessage, eventId: string): Promise<{ d?: DeliveryItem; inputs: Inputs }> => {
  const delivery = deliveryRead(refOf(m));
  const subscription = subscriptionRead(m.tenant, m.subscriptionId);
  const body = eventPayloadRead(m.tenant, eventId);
  const workspace = workspaceRead(tenantParts(m.tenant).workspaceId);
  const [d, sub, logged, byId, ws] = await batchGetJoined([delivery.key, subscription.key, ...body.keys, workspace.key]);
  return {
    d: delivery.parse(d),
    inputs: { sub: subscription.parse(sub), payload: body.parse(logged, byId), timezone: timezoneOf(workspace.parse(ws)) },
  };
};

/**
 * The delivery with its lease for `carrier` (the one it holds, else a fresh claim; none when neither), and
 * what its attempt needs when that was read with it. A message names its event, so the subscription, the body
 * and the workspace are read beside the delivery: in one BatchGetItem when the message holds the lease, else beside the claim.
 */
const take = async (m: DeliveryMessage, carrier: string): Promise<{ d?: DeliveryItem; inputs?: Promise<Inputs> }> => {
  if (m.eventId === undefined) return { d: await claimDelivery(refOf(m), carrier, Date.now(), Date.now() + EARLY_MS, LEASE_MS) };
  if (m.carrier === carrier) {
    const held = await readTogether(m, m.eventId);
    if (held.d && holds(held.d, carrier, Date.now()))
      return { d: held.d, inputs: held.d.eventId === m.eventId ? Promise.resolve(held.inputs) : undefined };
  }
  const early = attemptInputs(m, m.eventId);
  early.catch(() => undefined);
  const d = await claimDelivery(refOf(m), carrier, Date.now(), Date.now() + EARLY_MS, LEASE_MS);
  return { d, inputs: d?.eventId === m.eventId ? early : undefined };
};

/**
 * Handles one delivery message. Idempotent: a duplicate or stale message never makes a second attempt,
 * because an attempt needs the lease on a due delivery, and its record needs the attempt number unchanged.
 * A message carries its own carrier when it started the delivery; any other is carried by its message id.
 */
export const handleDeliveryMessage = async (m: DeliveryMessage, messageId: string): Promise<Verdict> => {
  const carrier = m.carrier ?? messageId;
  let { d, inputs } = await take(m, carrier);
  if (!d) {
    const verdict = await unclaimed(m, carrier, Date.now());
    if (verdict.ack || verdict.delayMs > MAX_ALIGN_MS) return verdict;
    await new Promise((r) => setTimeout(r, Math.max(0, verdict.delayMs)));
    ({ d, inputs } = await take(m, carrier));
    if (!d) return unclaimed(m, carrier, Date.now());
  }
  addContext({ eventId: d.eventId, eventType: d.eventType });
  const read = await (inputs ?? attemptInputs(m, d.eventId));
  const { sub, payload } = read;
  if (!sub?.active || sub.activatedAt !== d.subscriptionActivatedAt || payload === undefined) {
    // A body past its retention goes with its event: nothing is left to send.
    const reason = !sub
      ? 'subscription_deleted'
      : sub.active && sub.activatedAt === d.subscriptionActivatedAt
        ? 'event_expired'
        : 'subscription_inactive';
    await saveDelivery(direct, d, stoppedDelivery(d, reason, new Date()));
    return ACK;
  }
  const after = await attempt(direct, d, { ...read, sub, payload });
  if (after?.status === 'retrying') return { ack: false, delayMs: Date.parse(after.nextRetryAt!) - MAX_ALIGN_MS - Date.now() };
  if (after?.status === 'failed') await parkInDlq(m, after.failureReason ?? 'failed');
  return ACK;
};
