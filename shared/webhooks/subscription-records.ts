/** Subscriptions as stored, read or deleted: apart from `subscriptions.ts`, which checks targets and stops deliveries. */
import type { Tenant } from '../domain/auth/tenant';
import { Missing } from '../domain/refusal';
import type { Subscription } from '../domain/webhooks/subscription';
import type { PageRequest } from '../data/query';
import type { Unit } from '../data/unit';
import { getSubscription, subscriptionDeletion, subscriptionsPage } from '../data/webhook-subscriptions';

export const requireSubscription = async (tenant: Tenant, id: string): Promise<Subscription> => {
  const sub = await getSubscription(tenant, id);
  if (!sub) throw new Missing('Subscription');
  return sub;
};

export const listSubscriptions = (tenant: Tenant, page: PageRequest) => subscriptionsPage(tenant, page);

/** Deletes the subscription; answers it as it was. */
export const deleteSubscription = async (unit: Unit, tenant: Tenant, id: string): Promise<Subscription> => {
  const sub = await requireSubscription(tenant, id);
  await unit.commit(subscriptionDeletion(sub));
  return sub;
};
