import { expect, it } from 'vitest';
import { storeEventBody } from '../../shared/data/outbox';
import { direct } from '../../shared/data/unit';
import { createSubscription } from '../../shared/webhooks/subscriptions';
import { newDelivery } from '../../shared/domain/webhooks/delivery';
import { buildEnvelope } from '../../shared/events/envelope';
import { serialise } from '../../shared/events/payload';
import { startDelivery } from '../../shared/webhooks/fanout';
import { enqueueDeliveries } from '../../shared/webhooks/queue';
import { createTenant } from '../support/tenants';
import { useWebhookStack } from '../support/webhooks';

const ctx = useWebhookStack();

/** A ping's envelope with its body stored where the worker reads every event's body. */
const storedPing = async (tenant: Awaited<ReturnType<typeof createTenant>>['tenant'], note: string) => {
  const envelope = buildEnvelope('webhook.ping', tenant, { note });
  await direct.commit([storeEventBody(envelope, serialise(envelope))]);
  return envelope;
};

it("a delivery message's eventId only lets the worker read the body early: one naming another event still sends the delivery's own", {
  timeout: 60_000,
}, async () => {
  const { tenant } = await createTenant();
  const sub = await createSubscription(direct, tenant, { url: `${ctx.receiver.url}?message`, events: ['*'] }, new Date());
  const own = buildEnvelope('webhook.ping', tenant, { note: 'own' });
  const body = serialise(own);
  const other = await storedPing(tenant, 'other');

  const message = await startDelivery(direct, newDelivery(own, sub, new Date()), [storeEventBody(own, body)]);
  expect(message.eventId).toBe(own.eventId);
  await enqueueDeliveries(direct, [{ ...message, eventId: other.eventId }]);

  const [received] = await ctx.receiver.waitFor(1, 30_000);
  expect(received!.headers['x-webhook-id']).toBe(own.eventId);
  expect(received!.body).toBe(body);
});
