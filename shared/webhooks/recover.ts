import { objectId } from '../ids';
import { retriedDelivery } from '../domain/webhooks/delivery';
import { assertActive } from '../domain/webhooks/subscription';
import { MAX_RECOVERED, type Recovery } from '../domain/webhooks/recovery';
import { failedDeliveriesBefore, saveDelivery, type DeliveryItem } from '../data/webhook-deliveries';
import { requireSubscription } from './subscription-records';
import { mapLimit } from '../domain/map-limit';
import { log } from '../log';
import { enqueueDeliveries } from './queue';
import type { Tenant } from '../domain/auth/tenant';
import type { Unit } from '../data/unit';

/** Deliveries moved at once: each is its own small transaction on the subscription's counters. */
const PARALLEL = 8;
const PAGE = 100;

/** Moves each delivery from `failed` to `pending` unless another call did first; returns those it moved. */
const resend = async (unit: Unit, page: DeliveryItem[], sub: Parameters<typeof retriedDelivery>[1], now: Date): Promise<DeliveryItem[]> => {
  const moved = await mapLimit(page, PARALLEL, (d) => saveDelivery(unit, d, retriedDelivery(d, sub, now)));
  const refs = page.filter((_, i) => moved[i]);
  await enqueueDeliveries(
    unit,
    refs.map(({ workspaceId, subscriptionId, deliveryId }) => ({ tenant: workspaceId, subscriptionId, deliveryId })),
  );
  return refs;
};

/**
 * Gives every failed delivery of an active subscription created in [since, until) one new attempt, as a
 * manual retry does. Exactly once: a delivery leaves `failed` in a write conditioned on its state, so a
 * repeated, concurrent or resumed call finds it pending and skips it; a crash before its enqueue leaves a
 * pending delivery the sweeper re-enqueues. Nothing is held in memory beyond one page.
 */
export const recoverDeliveries = async (
  unit: Unit,
  tenant: Tenant,
  subscriptionId: string,
  range: { since: Date; until: Date },
  now: Date,
): Promise<Recovery> => {
  const sub = await requireSubscription(tenant, subscriptionId);
  assertActive(sub);
  const [since, until] = [range.since.toISOString(), range.until.toISOString()];
  let page: DeliveryItem[] = [];
  let deliveries = 0;
  const flush = async () => {
    deliveries += (await resend(unit, page, sub, now)).length;
    page = [];
  };
  for await (const d of failedDeliveriesBefore(tenant, subscriptionId, range.until)) {
    if (d.createdAt < since || d.createdAt >= until) continue;
    page.push(d);
    if (page.length === Math.min(PAGE, MAX_RECOVERED - deliveries)) await flush();
    if (deliveries >= MAX_RECOVERED) break;
  }
  await flush();
  const recovery = { _id: objectId(now.getTime()), since, until, deliveries };
  log.info('webhook deliveries recovered', { subscriptionId, recoveryId: recovery._id, deliveries });
  return recovery;
};
