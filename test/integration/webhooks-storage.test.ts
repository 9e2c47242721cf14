import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { expect, it } from 'vitest';
import { dynamo } from '../../shared/aws/dynamo';
import { config } from '../../shared/config';
import { testTenant } from '../../shared/domain/auth/tenant';
import { tenantPk } from '../../shared/data/keys';
import { eventPayload } from '../../shared/data/outbox';
import { client } from '../support/api';
import { createTenant, tokenFor } from '../support/tenants';
import { eventually, useWebhookStack } from '../support/webhooks';

const HOOKS = '/api/v1/integrations/webhooks';
const ctx = useWebhookStack();

const storedDelivery = async (workspaceId: string, subscriptionId: string, deliveryId: string) =>
  (
    await dynamo().send(
      new GetCommand({
        TableName: config().TABLE_NAME,
        Key: { pk: tenantPk(testTenant(workspaceId), 'WHSUB', subscriptionId), sk: `DLV#${deliveryId}` },
      }),
    )
  ).Item;

it('a delivery item keeps no event body and, once succeeded, no index entry: every attempt sends the one stored copy of its event, a ping its own', {
  timeout: 60_000,
}, async () => {
  const tenant = await createTenant();
  const api = client(ctx.stack.baseUrl, tenant);
  const sub = (await api.post(HOOKS, { url: ctx.receiver.url, events: ['auth.token.created'] })).body.data.subscription;

  await tokenFor([tenant.workspaceId], ['inbox:read']);
  const ping = await api.post(`${HOOKS}/${sub._id}/test`);
  expect(ping.status).toBe(202);
  const received = await ctx.receiver.waitFor(2, 30_000);

  for (const req of received) {
    const deliveryId = req.headers['x-webhook-delivery'] as string;
    const item = await eventually(async () => {
      const d = await storedDelivery(tenant.workspaceId, sub._id, deliveryId);
      return d?.status === 'success' && d;
    }, 10_000);
    expect(item).not.toHaveProperty('payload');
    // A success leaves the status index (one index delete); the log lists it from the subscription's partition.
    expect(item).not.toHaveProperty('gsi2pk');
    expect(await eventPayload(tenant.tenant, item.eventId as string)).toBe(req.body);
  }
  expect(received.map((r) => JSON.parse(r.body).eventType).sort()).toEqual(['auth.token.created', 'webhook.ping']);
});
