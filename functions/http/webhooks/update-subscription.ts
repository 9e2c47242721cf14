import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { subscription } from '../../../shared/views/webhooks';
import { publicSubscription } from '../../../shared/domain/webhooks/subscription';
import { changeSubscription } from '../../../shared/webhooks/subscriptions';
import { IdParams } from '../../../shared/http/params';
import { UpdateSubscription } from './schemas';

export const handler = route(
  { scope: 'webhooks:write', body: UpdateSubscription, params: IdParams, response: z.strictObject({ subscription }) },
  async ({ body, params, tenant, now, unit }) => ({
    subscription: publicSubscription(await changeSubscription(unit, tenant, params.id, body, now)),
  }),
);
