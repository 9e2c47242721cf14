import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { health } from '../../../shared/views/webhooks';
import { subscriptionHealth } from '../../../shared/webhooks/health';
import { IdParams } from '../../../shared/http/params';

export const handler = route(
  { scope: 'webhooks:read', params: IdParams, response: z.strictObject({ health }) },
  async ({ params, tenant }) => ({
    health: await subscriptionHealth(tenant, params.id),
  }),
);
