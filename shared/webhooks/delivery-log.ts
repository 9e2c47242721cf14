import { NotFoundError } from '../domain/errors';
import { publicDelivery } from '../domain/webhooks/delivery';
import { deliveryDetail } from '../domain/webhooks/delivery-log';
import { getDelivery, listDeliveries, responseBodies, type DeliveryFilter } from '../data/webhook-deliveries';
import { requireSubscription } from './subscription-records';
import { eventPayload } from '../data/outbox';
import type { PageRequest } from '../data/query';
import type { Tenant } from '../domain/auth/tenant';

/** `GET …/deliveries`: one page of the subscription's deliveries. */
export const loggedDeliveries = async (tenant: Tenant, subscriptionId: string, filter: DeliveryFilter, page: PageRequest) => {
  await requireSubscription(tenant, subscriptionId);
  const { deliveries, total, nextCursor } = await listDeliveries(tenant, subscriptionId, filter, page);
  return { deliveries: deliveries.map(publicDelivery), total, nextCursor };
};

/** `GET …/deliveries/{deliveryId}`: the delivery with each attempt's request and response. */
export const loggedDelivery = async (tenant: Tenant, subscriptionId: string, deliveryId: string) => {
  await requireSubscription(tenant, subscriptionId);
  const d = await getDelivery(tenant, subscriptionId, deliveryId);
  if (!d) throw new NotFoundError('Delivery');
  const [payload, bodies] = await Promise.all([eventPayload(tenant, d.eventId), responseBodies(d)]);
  return deliveryDetail(d, payload, bodies);
};
