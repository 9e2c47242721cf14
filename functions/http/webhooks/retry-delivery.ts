import { route } from '../../../shared/http/route';
import { publicDelivery } from '../../../shared/domain/webhooks/delivery';
import { retryDelivery } from '../../../shared/webhooks/manual';
import { DeliveryParams } from './params';

/** 202: the new attempt is queued now; its result shows up in the delivery log. */
export const handler = route({ scope: 'webhooks:write', params: DeliveryParams, status: 202 }, async ({ params, tenant, now }) => ({
  delivery: publicDelivery(await retryDelivery(tenant, params.id, params.deliveryId, now), true),
}));
