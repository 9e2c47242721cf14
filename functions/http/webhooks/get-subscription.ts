import { route } from '../../../shared/http/route';
import { publicSubscription } from '../../../shared/domain/webhooks/subscription';
import { requireSubscription } from '../../../shared/data/webhook-subscriptions';
import { SubscriptionParams } from './params';

export const handler = route({ scope: 'webhooks:read', params: SubscriptionParams }, async ({ params, tenant }) => ({
  subscription: publicSubscription(await requireSubscription(tenant, params.id)),
}));
