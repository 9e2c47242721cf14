import { config } from '../config';
import { objectId } from '../ids';
import {
  newSubscription,
  patchedFields,
  type Subscription,
  type SubscriptionInput,
  type SubscriptionPatch,
} from '../domain/webhooks/subscription';
import type { Unit } from '../data/unit';
import { patchedSubscription, subscriptionCreation, subscriptionPatch } from '../data/webhook-subscriptions';
import { stopPendingDeliveries } from './deliver';
import { requireSubscription } from './subscription-records';
import { assertAllowedTarget } from '../outbound/https';
import type { Tenant } from '../domain/auth/tenant';

const checkTarget = (url: string) => assertAllowedTarget(url, config().WEBHOOK_ALLOW_PRIVATE_TARGETS);

/** Creates a subscription, its URL unchecked: 409 past the workspace's limit or for a URL it already has. */
export const createSubscription = async (unit: Unit, tenant: Tenant, input: SubscriptionInput, now: Date): Promise<Subscription> => {
  const sub = newSubscription(objectId(now.getTime()), tenant, input, now);
  await unit.commit(subscriptionCreation(tenant, sub));
  return sub;
};

/** Creates a subscription whose URL is an allowed target (checked literally and through DNS). */
export const subscribe = async (unit: Unit, tenant: Tenant, input: SubscriptionInput, now: Date): Promise<Subscription> => {
  await checkTarget(input.url);
  return createSubscription(unit, tenant, input, now);
};

/** Applies a PATCH; a PATCH that changes nothing writes nothing. */
const updateSubscription = async (unit: Unit, tenant: Tenant, id: string, patch: SubscriptionPatch, now: Date): Promise<Subscription> => {
  const before = await requireSubscription(tenant, id);
  const fields = patchedFields(before, patch, now.toISOString());
  if (Object.keys(fields).length === 0) return before;
  await unit.commit(subscriptionPatch(before, fields));
  return patchedSubscription(before, fields);
};

/** Applies a PATCH; deactivating stops the pending retries, reactivating delivers new events only. */
export const changeSubscription = async (
  unit: Unit,
  tenant: Tenant,
  id: string,
  patch: SubscriptionPatch,
  now: Date,
): Promise<Subscription> => {
  if (patch.url !== undefined) await checkTarget(patch.url);
  const sub = await updateSubscription(unit, tenant, id, patch, now);
  if (patch.active === false) await stopPendingDeliveries(unit, sub, now);
  return sub;
};
