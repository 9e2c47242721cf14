import { isStalled } from '../domain/webhooks/delivery';
import { deliveriesInStatus } from '../data/webhook-deliveries';
import { everySubscription } from '../data/webhook-subscriptions';
import { enqueueDeliveries, type DeliveryMessage } from './queue';
import type { Unit } from '../data/unit';

/**
 * The safety net behind the queue: the table is the truth, so any pending or retrying delivery that is
 * well past its time with no attempt under way (its message was lost, e.g. an emulator restart) is
 * enqueued again. Duplicates are harmless: an attempt needs the delivery's lease.
 */
export const requeueStalled = async (unit: Unit, now = Date.now()): Promise<number> => {
  const stalled: DeliveryMessage[] = [];
  for await (const sub of everySubscription()) {
    if (!sub.active) continue;
    for (const status of ['pending', 'retrying'] as const) {
      for (const d of await deliveriesInStatus(sub.workspaceId, sub._id, status)) {
        if (isStalled(d, now))
          stalled.push({ tenant: d.workspaceId, subscriptionId: d.subscriptionId, deliveryId: d.deliveryId, eventId: d.eventId });
      }
    }
  }
  await enqueueDeliveries(unit, stalled);
  return stalled.length;
};
