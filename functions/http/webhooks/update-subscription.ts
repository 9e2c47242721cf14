import { route } from '../../../shared/http/route';
import { publicSubscription } from '../../../shared/domain/webhooks/subscription';
import { changeSubscription } from '../../../shared/webhooks/subscriptions';
import { SubscriptionParams } from './params';
import { UpdateSubscription } from './schemas';

export const handler = route(
  { scope: 'webhooks:write', body: UpdateSubscription, params: SubscriptionParams },
  async ({ body, params, tenant, now }) => ({
    subscription: publicSubscription(await changeSubscription(tenant, params.id, body, now)),
  }),
);
