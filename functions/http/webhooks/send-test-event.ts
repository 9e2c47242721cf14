import { route } from '../../../shared/http/route';
import { publicDelivery } from '../../../shared/domain/webhooks/delivery';
import { sendPing } from '../../../shared/webhooks/manual';
import { SubscriptionParams } from './params';

export const handler = route({ scope: 'webhooks:write', params: SubscriptionParams, status: 202 }, async ({ params, tenant, now }) => ({
  delivery: publicDelivery(await sendPing(tenant, params.id, now), true),
}));
