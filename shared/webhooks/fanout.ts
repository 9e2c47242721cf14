import { randomUUID } from 'node:crypto';
import { envelopeTenant, type EventEnvelope } from '../events/envelope';
import { newDelivery, type Delivery } from '../domain/webhooks/delivery';
import { receives } from '../domain/webhooks/subscription';
import { createDelivery } from '../data/webhook-deliveries';
import { tenantSubscriptions } from '../data/webhook-subscriptions';
import type { Write } from '../data/transact';
import type { Unit } from '../data/unit';
import { LEASE_MS } from '../domain/webhooks/delivery';
import { enqueueDeliveries, type DeliveryMessage } from './queue';

/** One SQS batch; groups go one after another so the first deliveries start while the rest are written. */
const GROUP = 10;

/**
 * Writes a delivery leased to a new carrier and returns the message that carries it; when the delivery
 * already existed (a re-run), the message names no carrier, so it must claim the delivery like any other.
 */
export const startDelivery = async (unit: Unit, d: Delivery, extra: Write[] = []): Promise<DeliveryMessage> => {
  const ref = { tenant: d.workspaceId, subscriptionId: d.subscriptionId, deliveryId: d.deliveryId, eventId: d.eventId };
  const lease = { carrier: randomUUID(), until: Date.parse(d.createdAt) + LEASE_MS };
  return (await createDelivery(unit, d, lease, extra)) ? { ...ref, carrier: lease.carrier } : ref;
};

/** Writes and enqueues deliveries; re-running it for the same event creates nothing twice. */
const startDeliveries = async (unit: Unit, deliveries: readonly Delivery[]): Promise<void> => {
  const groups = Array.from({ length: Math.ceil(deliveries.length / GROUP) }, (_, i) => deliveries.slice(i * GROUP, (i + 1) * GROUP));
  for (const group of groups) {
    const messages = await Promise.all(group.map((d) => startDelivery(unit, d)));
    await enqueueDeliveries(unit, messages);
  }
};

/** One delivery per subscription of the event's tenant (its body is the outbox item's) (so of its mode) that was active and subscribed when the event occurred. */
export const fanOut = async (unit: Unit, envelope: EventEnvelope, now = new Date()): Promise<number> => {
  const subs = (await tenantSubscriptions(envelopeTenant(envelope))).filter((s) => receives(s, envelope.eventType, envelope.occurredAt));
  await startDeliveries(
    unit,
    subs.map((s) => newDelivery(envelope, s, now)),
  );
  return subs.length;
};
