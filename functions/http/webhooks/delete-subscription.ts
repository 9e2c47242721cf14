import { route } from '../../../shared/http/route';
import { deleteSubscription } from '../../../shared/data/webhook-subscriptions';
import { SubscriptionParams } from './params';

export const handler = route({ scope: 'webhooks:write', params: SubscriptionParams }, async ({ params, tenant }) => {
  await deleteSubscription(tenant, params.id);
  return { subscription: { _id: params.id, deleted: true } };
});
