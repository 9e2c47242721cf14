import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { deliveryDetail } from '../../../shared/views/webhooks';
import { loggedDelivery } from '../../../shared/webhooks/delivery-log';
import { DeliveryParams } from './params';

export const handler = route(
  { scope: 'webhooks:read', params: DeliveryParams, response: z.strictObject({ delivery: deliveryDetail }) },
  async ({ params, tenant }) => ({
    delivery: await loggedDelivery(tenant, params.id, params.deliveryId),
  }),
);
