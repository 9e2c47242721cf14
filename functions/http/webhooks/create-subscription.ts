import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { subscriptionWithSecret } from '../../../shared/views/webhooks';
import { publicSubscription } from '../../../shared/domain/webhooks/subscription';
import { subscribe } from '../../../shared/webhooks/subscriptions';
import { CreateSubscription } from './schemas';

/** The secret is returned here, once, and never again. */
export const handler = route(
  { scope: 'webhooks:write', body: CreateSubscription, status: 201, response: z.strictObject({ subscription: subscriptionWithSecret }) },
  async ({ body, tenant, now, unit }) => {
    const sub = await subscribe(unit, tenant, body, now);
    return { subscription: { ...publicSubscription(sub), secret: sub.secret } };
  },
);
