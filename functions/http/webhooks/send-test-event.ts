import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { delivery } from '../../../shared/views/webhooks';
import { deliveryWithAttempts } from '../../../shared/domain/webhooks/delivery';
import { sendPing } from '../../../shared/webhooks/manual';
import { IdParams } from '../../../shared/http/params';

export const handler = route(
  { scope: 'webhooks:write', params: IdParams, status: 202, response: z.strictObject({ delivery }) },
  async ({ params, tenant, now, unit }) => ({
    delivery: deliveryWithAttempts(await sendPing(unit, tenant, params.id, now)),
  }),
);
