import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { health } from '../../../shared/views/webhooks';
import { endpointHealth, HEALTH_WINDOW } from '../../../shared/domain/webhooks/health';
import { recentStatuses } from '../../../shared/data/webhook-deliveries';
import { requireSubscription } from '../../../shared/data/webhook-subscriptions';
import { SubscriptionParams } from './params';

export const handler = route(
  { scope: 'webhooks:read', params: SubscriptionParams, response: z.strictObject({ health }) },
  async ({ params, tenant }) => {
    const [sub, recent] = await Promise.all([requireSubscription(tenant, params.id), recentStatuses(tenant, params.id, HEALTH_WINDOW)]);
    return { health: endpointHealth(sub, recent) };
  },
);
