import { verify as octokitVerify } from '@octokit/webhooks-methods';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { client, expectError } from '../support/api';
import type { Received } from '../support/https-receiver';
import { createTenant } from '../support/tenants';
import { sleep, useWebhookStack } from '../support/webhooks';

const HOOKS = '/api/v1/integrations/webhooks';
const ctx = useWebhookStack();
let n = 0;

/** A fresh workspace with one subscription at the shared receiver (a distinct URL each, as one URL per workspace is allowed). */
const subscribed = async () => {
  const api = client(ctx.stack.baseUrl, await createTenant());
  const created = await api.post(HOOKS, { url: `${ctx.receiver.url}?n=${++n}`, events: ['*'] });
  expect(created.status).toBe(201);
  return { api, sub: created.body.data.subscription as { _id: string; secret: string } };
};

/** Sends the subscription's ping and returns the request the receiver got. */
const ping = async (api: ReturnType<typeof client>, subscriptionId: string): Promise<Received> => {
  const sent = await api.post(`${HOOKS}/${subscriptionId}/test`);
  expect(sent.status).toBe(202);
  const { deliveryId } = sent.body.data.delivery;
  const all = await ctx.receiver.waitUntil((r) => r.some((x) => x.headers['x-webhook-delivery'] === deliveryId), 15_000);
  return all.find((x) => x.headers['x-webhook-delivery'] === deliveryId)!;
};

const verifiesWith = (secret: string, req: Received): boolean => {
  try {
    new Webhook(secret).verify(req.body, req.headers as Record<string, string>);
    return true;
  } catch {
    return false;
  }
};

describe('secret rotation with an overlap window', () => {
  it('during the overlap a delivery verifies with the old and the new secret; after it, with the new one only', async () => {
    const { api, sub } = await subscribed();
    const rotated = await api.post(`${HOOKS}/${sub._id}/rotate-secret`, { overlapSeconds: 4 });
    expect(rotated.status).toBe(200);
    const next = rotated.body.data.subscription as { secret: string; previousSecretsExpireAt: string };
    expect(next.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(next.secret).not.toBe(sub.secret);
    const overlapEnds = Date.parse(next.previousSecretsExpireAt);
    expect(overlapEnds - Date.now()).toBeGreaterThan(2000);

    // Neither secret is ever shown again.
    const shown = JSON.stringify((await api.get(`${HOOKS}/${sub._id}`)).body) + JSON.stringify((await api.get(HOOKS)).body);
    expect(shown).not.toContain(sub.secret);
    expect(shown).not.toContain(next.secret);

    const during = await ping(api, sub._id);
    expect((during.headers['webhook-signature'] as string).split(' ')).toHaveLength(2);
    expect(verifiesWith(sub.secret, during)).toBe(true);
    expect(verifiesWith(next.secret, during)).toBe(true);
    // The contract's single-valued header keeps the replaced secret's signature until the overlap ends.
    expect(await octokitVerify(sub.secret, during.body, during.headers['x-webhook-signature'] as string)).toBe(true);

    await sleep(overlapEnds - Date.now() + 1100);
    const after = await ping(api, sub._id);
    expect((after.headers['webhook-signature'] as string).split(' ')).toHaveLength(1);
    expect(verifiesWith(next.secret, after)).toBe(true);
    expect(verifiesWith(sub.secret, after)).toBe(false);
    expect(await octokitVerify(next.secret, after.body, after.headers['x-webhook-signature'] as string)).toBe(true);
  });

  it('overlapSeconds 0 replaces the secret at once; more than a week, a negative or a fraction is 422', async () => {
    const { api, sub } = await subscribed();
    for (const overlapSeconds of [604_801, -1, 1.5, '60']) {
      expectError(await api.post(`${HOOKS}/${sub._id}/rotate-secret`, { overlapSeconds }), 422, 'VALIDATION_ERROR');
    }
    const rotated = await api.post(`${HOOKS}/${sub._id}/rotate-secret`, { overlapSeconds: 0 });
    expect(rotated.status).toBe(200);
    expect(rotated.body.data.subscription).not.toHaveProperty('previousSecretsExpireAt');
    const req = await ping(api, sub._id);
    expect(verifiesWith(rotated.body.data.subscription.secret, req)).toBe(true);
    expect(verifiesWith(sub.secret, req)).toBe(false);
  });

  it('defaults to a one-day overlap, and another workspace cannot rotate the secret (404)', async () => {
    const { api, sub } = await subscribed();
    const before = Date.now();
    const rotated = await api.post(`${HOOKS}/${sub._id}/rotate-secret`, {});
    expect(rotated.status).toBe(200);
    const ends = Date.parse(rotated.body.data.subscription.previousSecretsExpireAt);
    expect(ends - before).toBeGreaterThanOrEqual(86_400_000 - 1000);
    expect(ends - before).toBeLessThanOrEqual(86_400_000 + 5000);
    const other = await subscribed();
    expectError(await other.api.post(`${HOOKS}/${sub._id}/rotate-secret`, {}), 404, 'NOT_FOUND');
  });
});
