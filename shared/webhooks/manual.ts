import { buildEnvelope } from '../events/envelope';
import { serialise } from '../events/payload';
import { ConflictError, NotFoundError } from '../domain/errors';
import type { Delivery } from '../domain/webhooks/delivery';
import { publicSubscription, type Subscription } from '../domain/webhooks/subscription';
import { getDelivery, saveDelivery } from '../data/webhook-deliveries';
import { requireSubscription } from '../data/webhook-subscriptions';
import { newDelivery, startDeliveries } from './fanout';
import { enqueueDeliveries } from './queue';

const requireActive = (sub: Subscription) => {
  if (!sub.active) throw new ConflictError('The subscription is inactive; reactivate it with PATCH {"active": true} first');
};

/**
 * Manual retry: a failed delivery gets one new attempt now, in a new round, so if it fails the normal
 * schedule runs again from there. Only failed deliveries of an active subscription qualify.
 */
export const retryDelivery = async (workspaceId: string, subscriptionId: string, deliveryId: string, now: Date): Promise<Delivery> => {
  const sub = await requireSubscription(workspaceId, subscriptionId);
  const d = await getDelivery(workspaceId, subscriptionId, deliveryId);
  if (!d) throw new NotFoundError('Delivery');
  if (d.status !== 'failed') throw new ConflictError(`Only a failed delivery can be retried; this one is ${d.status}`);
  requireActive(sub);
  const after: Delivery = {
    ...d,
    status: 'pending',
    nextRetryAt: now.toISOString(),
    roundStartAttempt: d.attemptNumber + 1,
    roundStartedAt: undefined,
    subscriptionActivatedAt: sub.activatedAt!,
    updatedAt: now.toISOString(),
  };
  if (!(await saveDelivery(d, after))) throw new ConflictError('The delivery changed while it was being retried');
  await enqueueDeliveries([{ workspaceId, subscriptionId, deliveryId }]);
  return after;
};

/** `POST …/test`: a `webhook.ping` event delivered to this subscription only, signed like any other. */
export const sendPing = async (workspaceId: string, subscriptionId: string, now: Date): Promise<Delivery> => {
  const sub = await requireSubscription(workspaceId, subscriptionId);
  requireActive(sub);
  const envelope = buildEnvelope('webhook.ping', workspaceId, { subscription: publicSubscription(sub) }, { now });
  const delivery = newDelivery(envelope, serialise(envelope), sub, now);
  await startDeliveries([delivery]);
  return delivery;
};
