import { config } from '../config';
import type { Subscription, SubscriptionInput, SubscriptionPatch } from '../domain/webhooks/subscription';
import { createSubscription, updateSubscription } from '../data/webhook-subscriptions';
import { stopPendingDeliveries } from './deliver';
import { assertAllowedTarget } from '../outbound/https';
import type { Tenant } from '../domain/auth/tenant';

export { deleteSubscription, listSubscriptions, requireSubscription } from '../data/webhook-subscriptions';

const checkTarget = (url: string) => assertAllowedTarget(url, config().WEBHOOK_ALLOW_PRIVATE_TARGETS);

/** Creates a subscription whose URL is an allowed target (checked literally and through DNS). */
export const subscribe = async (tenant: Tenant, input: SubscriptionInput, now: Date): Promise<Subscription> => {
  await checkTarget(input.url);
  return createSubscription(tenant, input, now);
};

/** Applies a PATCH; deactivating stops the pending retries, reactivating delivers new events only. */
export const changeSubscription = async (tenant: Tenant, id: string, patch: SubscriptionPatch, now: Date): Promise<Subscription> => {
  if (patch.url !== undefined) await checkTarget(patch.url);
  const sub = await updateSubscription(tenant, id, patch, now);
  if (patch.active === false) await stopPendingDeliveries(sub, now);
  return sub;
};
