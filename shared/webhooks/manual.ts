import { buildEnvelope } from '../events/envelope';
import { serialise } from '../events/payload';
import { ConflictError, NotFoundError } from '../domain/errors';
import { newDelivery, retriedDelivery, type Delivery } from '../domain/webhooks/delivery';
import { assertActive, publicSubscription } from '../domain/webhooks/subscription';
import { getDelivery, saveDelivery } from '../data/webhook-deliveries';
import { storeEventBody } from '../data/outbox';
import { requireSubscription } from './subscription-records';
import { startDelivery } from './fanout';
import { enqueueDeliveries } from './queue';
import type { Tenant } from '../domain/auth/tenant';
import type { Unit } from '../data/unit';

/** Manual retry of a failed delivery of an active subscription (see `retriedDelivery`). */
export const retryDelivery = async (
  unit: Unit,
  tenant: Tenant,
  subscriptionId: string,
  deliveryId: string,
  now: Date,
): Promise<Delivery> => {
  const sub = await requireSubscription(tenant, subscriptionId);
  const d = await getDelivery(tenant, subscriptionId, deliveryId);
  if (!d) throw new NotFoundError('Delivery');
  const after = retriedDelivery(d, sub, now);
  assertActive(sub);
  if (!(await saveDelivery(unit, d, after))) throw new ConflictError('The delivery changed while it was being retried');
  await enqueueDeliveries(unit, [{ tenant, subscriptionId, deliveryId }]);
  return after;
};

/** `POST …/test`: a `webhook.ping` event delivered to this subscription only, signed like any other. */
export const sendPing = async (unit: Unit, tenant: Tenant, subscriptionId: string, now: Date): Promise<Delivery> => {
  const sub = await requireSubscription(tenant, subscriptionId);
  assertActive(sub);
  const envelope = buildEnvelope('webhook.ping', tenant, { subscription: publicSubscription(sub) }, { now });
  const delivery = newDelivery(envelope, sub, now);
  // A ping has no outbox item (it goes to this subscription only), so its body is stored with the delivery.
  const message = await startDelivery(unit, delivery, [storeEventBody(envelope, serialise(envelope))]);
  await enqueueDeliveries(unit, [message]);
  return delivery;
};
