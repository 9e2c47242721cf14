import { rotatedSecrets, type Subscription } from '../domain/webhooks/subscription';
import { replaceSecrets } from '../data/webhook-subscriptions';
import { requireSubscription } from './subscription-records';
import type { Tenant } from '../domain/auth/tenant';
import type { Unit } from '../data/unit';

/** Gives the subscription a new generated secret; the current one keeps signing deliveries for `overlapSeconds`. */
export const rotateSecret = async (
  unit: Unit,
  tenant: Tenant,
  subscriptionId: string,
  overlapSeconds: number,
  now: Date,
): Promise<Subscription> => {
  const sub = await requireSubscription(tenant, subscriptionId);
  return replaceSecrets(unit, sub, rotatedSecrets(sub, overlapSeconds, now), now);
};
