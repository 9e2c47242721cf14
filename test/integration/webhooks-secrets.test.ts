import { verify as octokitVerify } from '@octokit/webhooks-methods';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { client } from '../support/api';
import type { Received } from '../support/https-receiver';
import { createTenant } from '../support/tenants';
import { useWebhookStack } from '../support/webhooks';

const HOOKS = '/api/v1/integrations/webhooks';
const ctx = useWebhookStack();

/** Subscribes the receiver with `secret` (generated when undefined), sends the ping, and returns what arrived. */
const pinged = async (secret: string | undefined, n: number): Promise<{ secret: string; req: Received }> => {
  const api = client(ctx.stack.baseUrl, await createTenant());
  const created = await api.post(HOOKS, { url: `${ctx.receiver.url}?secret=${n}`, events: ['*'], ...(secret ? { secret } : {}) });
  expect(created.status).toBe(201);
  const sub = created.body.data.subscription as { _id: string; secret: string };
  const sent = await api.post(`${HOOKS}/${sub._id}/test`);
  expect(sent.status).toBe(202);
  const { deliveryId } = sent.body.data.delivery;
  const all = await ctx.receiver.waitUntil((r) => r.some((x) => x.headers['x-webhook-delivery'] === deliveryId), 15_000);
  return { secret: sub.secret, req: all.find((x) => x.headers['x-webhook-delivery'] === deliveryId)! };
};

const headersOf = (req: Received) => req.headers as Record<string, string>;

describe('webhook signing secrets over a real HTTPS delivery', () => {
  it('a generated whsec_ secret verifies with standardwebhooks at its defaults and with @octokit/webhooks-methods as given', async () => {
    const { secret, req } = await pinged(undefined, 1);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(new Webhook(secret).verify(req.body, headersOf(req))).toMatchObject({ eventType: 'webhook.ping' });
    expect(await octokitVerify(secret, req.body, req.headers['x-webhook-signature'] as string)).toBe(true);
    // The Standard Webhooks key is the decoded bytes, not the string: a raw reading fails.
    expect(() => new Webhook(secret, { format: 'raw' }).verify(req.body, headersOf(req))).toThrow();
  });

  it.each([
    ['an old generated whs_ secret', 'whs_Zm9vYmFyYmF6cXV4LWFuLW9sZC1nZW5lcmF0ZWQtc2VjcmV0'],
    ['a secret the subscriber chose', 'my-own-secret-0123456789'],
    ['a whsec_ secret that is not base64', 'whsec_my-own-secret,not-base64!'],
  ])('%s keeps verifying as before: raw for standardwebhooks, as given for @octokit/webhooks-methods', async (_label, given) => {
    const { secret, req } = await pinged(given, given.length);
    expect(secret).toBe(given);
    expect(new Webhook(secret, { format: 'raw' }).verify(req.body, headersOf(req))).toMatchObject({ eventType: 'webhook.ping' });
    expect(await octokitVerify(secret, req.body, req.headers['x-webhook-signature'] as string)).toBe(true);
  });
});
