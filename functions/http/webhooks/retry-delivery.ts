import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { delivery } from '../../../shared/views/webhooks';
import { deliveryWithAttempts } from '../../../shared/domain/webhooks/delivery';
import { retryDelivery } from '../../../shared/webhooks/manual';
import { DeliveryParams } from './params';

/** 202: the new attempt is queued now; its result shows up in the delivery log. */
export const handler = route(
  { scope: 'webhooks:write', params: DeliveryParams, status: 202, response: z.strictObject({ delivery }) },
  async ({ params, tenant, now, unit }) => ({
    delivery: deliveryWithAttempts(await retryDelivery(unit, tenant, params.id, params.deliveryId, now)),
  }),
);
