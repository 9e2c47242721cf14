import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { delivery } from '../../../shared/views/webhooks';
import { NotFoundError } from '../../../shared/domain/errors';
import { deliveryWithAttempts } from '../../../shared/domain/webhooks/delivery';
import { getDelivery } from '../../../shared/data/webhook-deliveries';
import { requireSubscription } from '../../../shared/data/webhook-subscriptions';
import { DeliveryParams } from './params';

export const handler = route({ scope: 'webhooks:read', params: DeliveryParams, response: z.strictObject({ delivery }) }, async ({ params, tenant }) => {
  await requireSubscription(tenant, params.id);
  const delivery = await getDelivery(tenant, params.id, params.deliveryId);
  if (!delivery) throw new NotFoundError('Delivery');
  return { delivery: deliveryWithAttempts(delivery) };
});
