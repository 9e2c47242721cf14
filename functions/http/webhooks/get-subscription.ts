import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { subscription } from '../../../shared/views/webhooks';
import { publicSubscription } from '../../../shared/domain/webhooks/subscription';
import { requireSubscription } from '../../../shared/webhooks/subscription-records';
import { IdParams } from '../../../shared/http/params';

export const handler = route(
  { scope: 'webhooks:read', params: IdParams, response: z.strictObject({ subscription }) },
  async ({ params, tenant }) => ({
    subscription: publicSubscription(await requireSubscription(tenant, params.id)),
  }),
);
