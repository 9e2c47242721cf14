import { endpointHealth, HEALTH_WINDOW } from '../domain/webhooks/health';
import { recentStatuses } from '../data/webhook-deliveries';
import { requireSubscription } from './subscription-records';
import type { Tenant } from '../domain/auth/tenant';

/** The health of the subscription's endpoint, judged on its last `HEALTH_WINDOW` deliveries. */
export const subscriptionHealth = async (tenant: Tenant, subscriptionId: string) => {
  const [sub, recent] = await Promise.all([
    requireSubscription(tenant, subscriptionId),
    recentStatuses(tenant, subscriptionId, HEALTH_WINDOW),
  ]);
  return endpointHealth(sub, recent);
};
