import { verify as octokitVerify } from '@octokit/webhooks-methods';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { client, expectError } from '../support/api';
import { startReceiver, type Received } from '../support/https-receiver';
import { createTenant } from '../support/tenants';
import { eventually, sleep, useWebhookStack } from '../support/webhooks';

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

describe('recovery: re-send every failed delivery since a time, exactly once', () => {
  it('re-sends the failed deliveries created in the range once each, even when called twice at once and again', async () => {
    const receiver = await startReceiver(() => ({ status: 503 }));
    try {
      const api = client(ctx.stack.baseUrl, await createTenant());
      const sub = (await api.post(HOOKS, { url: receiver.url, events: ['*'] })).body.data.subscription as { _id: string };
      const pingIds: string[] = [];
      for (let i = 0; i < 4; i++) pingIds.push((await api.post(`${HOOKS}/${sub._id}/test`)).body.data.delivery.deliveryId);
      await receiver.waitUntil((all) => pingIds.every((id) => all.some((r) => r.headers['x-webhook-delivery'] === id)), 15_000);
      // Deactivating ends the pending retries as failed; the endpoint is then fixed and reactivated.
      expect((await api.patch(`${HOOKS}/${sub._id}`, { active: false })).status).toBe(200);
      const failed = await eventually(async () => {
        const list = (await api.get(`${HOOKS}/${sub._id}/deliveries?status=failed`)).body.data.deliveries as any[];
        return list.length === 4 && list;
      }, 10_000);
      expect(failed.every((d) => d.nextAttemptAt === null)).toBe(true);
      const first = failed.find((d) => d.deliveryId === pingIds[0])!;
      const since = new Date(Date.parse(first.createdAt) + 1).toISOString();
      expectError(await api.post(`${HOOKS}/${sub._id}/recover`, { since }), 409, 'CONFLICT');
      expect((await api.patch(`${HOOKS}/${sub._id}`, { active: true })).status).toBe(200);
      receiver.setReply(() => ({ status: 200 }));
      const before = receiver.received.length;

      const [a, b] = await Promise.all([
        api.post(`${HOOKS}/${sub._id}/recover`, { since }),
        api.post(`${HOOKS}/${sub._id}/recover`, { since }),
      ]);
      expect([a.status, b.status]).toEqual([202, 202]);
      expect(a.body.data.recovery).toMatchObject({ _id: expect.any(String), since, until: expect.any(String) });
      expect(a.body.data.recovery.deliveries + b.body.data.recovery.deliveries).toBe(3);

      const resent = pingIds.slice(1);
      await receiver.waitUntil((all) => all.length - before >= 3, 15_000);
      const again = await api.post(`${HOOKS}/${sub._id}/recover`, { since });
      expect(again.status).toBe(202);
      expect(again.body.data.recovery.deliveries).toBe(0);
      await eventually(async () => {
        const list = (await api.get(`${HOOKS}/${sub._id}/deliveries?status=success`)).body.data.deliveries as any[];
        return list.length === 3;
      }, 10_000);
      await sleep(1500);
      const after = receiver.received.slice(before);
      expect(after.map((r) => r.headers['x-webhook-delivery']).sort()).toEqual([...resent].sort());
      const untouched = (await api.get(`${HOOKS}/${sub._id}/deliveries/${pingIds[0]}`)).body.data.delivery;
      expect(untouched.status).toBe('failed');
    } finally {
      await receiver.stop();
    }
  });

  it('refuses a range that ends before it starts or lies outside the date bounds (422), and another workspace (404)', async () => {
    const { api, sub } = await subscribed();
    const at = '2026-01-01T00:00:00Z';
    expectError(await api.post(`${HOOKS}/${sub._id}/recover`, { since: at, until: at }), 422, 'VALIDATION_ERROR');
    expectError(await api.post(`${HOOKS}/${sub._id}/recover`, { since: '1999-12-31T00:00:00Z' }), 422, 'VALIDATION_ERROR');
    expectError(await api.post(`${HOOKS}/${sub._id}/recover`, {}), 400, 'BAD_REQUEST');
    const other = await subscribed();
    expectError(await other.api.post(`${HOOKS}/${sub._id}/recover`, { since: at }), 404, 'NOT_FOUND');
  });
});

describe('the delivery log in depth', () => {
  it("shows each attempt's request (headers without signatures, body) and response body, cut at 4 KB, and never a secret", async () => {
    const long = 'é'.repeat(3000);
    const receiver = await startReceiver((_req, i) => (i === 0 ? { status: 503, body: long } : { status: 200, body: '{"ok":true}' }));
    try {
      const api = client(ctx.stack.baseUrl, await createTenant());
      const sub = (await api.post(HOOKS, { url: receiver.url, events: ['*'] })).body.data.subscription as { _id: string; secret: string };
      const { deliveryId } = (await api.post(`${HOOKS}/${sub._id}/test`)).body.data.delivery;
      const received = await receiver.waitFor(2, 15_000);
      const d = await eventually(async () => {
        const got = (await api.get(`${HOOKS}/${sub._id}/deliveries/${deliveryId}`)).body.data.delivery;
        return got.status === 'success' && got;
      }, 10_000);
      expect(d.nextAttemptAt).toBeNull();
      const [first, second] = d.attempts;
      expect(first.response.bodyTruncated).toBe(true);
      expect(Buffer.byteLength(first.response.body)).toBeLessThanOrEqual(4096);
      expect(Buffer.byteLength(first.response.body)).toBeGreaterThan(4090);
      expect(long.startsWith(first.response.body)).toBe(true);
      expect(second.response).toEqual({ body: '{"ok":true}', bodyTruncated: false });
      d.attempts.forEach((a: any, i: number) => {
        expect(a.request).toMatchObject({ body: received[i]!.body, bodyTruncated: false });
        // Every header shown is the one sent; the signature headers are left out.
        for (const [name, value] of Object.entries(a.request.headers)) expect(received[i]!.headers[name.toLowerCase()]).toBe(value);
        expect(Object.keys(a.request.headers).map((h) => h.toLowerCase())).not.toEqual(expect.arrayContaining(['webhook-signature']));
        expect(a.request.headers).not.toHaveProperty('X-Webhook-Signature');
      });
      expect(JSON.stringify(d)).not.toContain(sub.secret);
      expect(JSON.stringify(d)).not.toContain(received[0]!.headers['x-webhook-signature']);
    } finally {
      await receiver.stop();
    }
  });

  it("reports an endpoint's health: success rate of the latest deliveries, consecutive failures, and why and when it was deactivated", async () => {
    const receiver = await startReceiver((_req, i) => (i === 0 ? { status: 200 } : { status: 410 }));
    try {
      const api = client(ctx.stack.baseUrl, await createTenant());
      const sub = (await api.post(HOOKS, { url: receiver.url, events: ['*'] })).body.data.subscription as { _id: string };
      const fresh = await api.get(`${HOOKS}/${sub._id}/health`);
      expect(fresh.body.data.health).toEqual({
        subscriptionId: sub._id,
        active: true,
        consecutiveFailures: 0,
        deactivateAfter: 100,
        deactivatedAt: null,
        deactivationReason: null,
        recent: { deliveries: 0, succeeded: 0, failed: 0, inProgress: 0, successRate: null },
      });
      await api.post(`${HOOKS}/${sub._id}/test`);
      await receiver.waitFor(1, 15_000);
      await eventually(async () => (await api.get(`${HOOKS}/${sub._id}/health`)).body.data.health.recent.succeeded === 1, 10_000);
      await api.post(`${HOOKS}/${sub._id}/test`);
      const health = await eventually(async () => {
        const h = (await api.get(`${HOOKS}/${sub._id}/health`)).body.data.health;
        return !h.active && h.recent.failed === 1 && h;
      }, 15_000);
      expect(health).toMatchObject({
        deactivationReason: 'gone_410',
        recent: { deliveries: 2, succeeded: 1, failed: 1, inProgress: 0, successRate: 0.5 },
      });
      expect(Date.parse(health.deactivatedAt)).not.toBeNaN();
      const other = await subscribed();
      expectError(await other.api.get(`${HOOKS}/${sub._id}/health`), 404, 'NOT_FOUND');
    } finally {
      await receiver.stop();
    }
  });
});
