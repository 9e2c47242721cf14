import { envelopeTenant, type EventEnvelope } from '../events/envelope';
import { newDelivery, type Delivery } from '../domain/webhooks/delivery';
import { receives } from '../domain/webhooks/subscription';
import { createDelivery } from '../data/webhook-deliveries';
import { tenantSubscriptions } from '../data/webhook-subscriptions';
import { afterCommit } from '../data/transact';
import { enqueueDeliveries } from './queue';

/** One SQS batch; groups go one after another so the first deliveries start while the rest are written. */
const GROUP = 10;

/** Writes and enqueues deliveries; re-running it for the same event creates nothing twice. */
export const startDeliveries = async (deliveries: readonly Delivery[]): Promise<void> => {
  const groups = Array.from({ length: Math.ceil(deliveries.length / GROUP) }, (_, i) => deliveries.slice(i * GROUP, (i + 1) * GROUP));
  for (const group of groups) {
    await Promise.all(group.map(createDelivery));
    await afterCommit(() => enqueueDeliveries(group.map(({ workspaceId, subscriptionId, deliveryId }) => ({ workspaceId, subscriptionId, deliveryId }))));
  }
};

/** One delivery per subscription of the event's tenant (so of its mode) that was active and subscribed when the event occurred. */
export const fanOut = async (envelope: EventEnvelope, payload: string, now = new Date()): Promise<number> => {
  const subs = (await tenantSubscriptions(envelopeTenant(envelope))).filter((s) => receives(s, envelope.eventType, envelope.occurredAt));
  await startDeliveries(subs.map((s) => newDelivery(envelope, payload, s, now)));
  return subs.length;
};
