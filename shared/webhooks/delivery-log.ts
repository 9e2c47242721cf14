import { NotFoundError } from '../domain/errors';
import { deliveryDetail } from '../domain/webhooks/delivery-log';
import { getDelivery, responseBodies } from '../data/webhook-deliveries';
import { requireSubscription } from '../data/webhook-subscriptions';
import { eventPayload } from '../data/outbox';
import type { Tenant } from '../domain/auth/tenant';

/** `GET …/deliveries/{deliveryId}`: the delivery with each attempt's request and response. */
export const loggedDelivery = async (tenant: Tenant, subscriptionId: string, deliveryId: string) => {
  await requireSubscription(tenant, subscriptionId);
  const d = await getDelivery(tenant, subscriptionId, deliveryId);
  if (!d) throw new NotFoundError('Delivery');
  const [payload, bodies] = await Promise.all([eventPayload(d.eventId), responseBodies(d)]);
  return deliveryDetail(d, payload, bodies);
};
