import { beforeAll, describe, expect, it } from 'vitest';
import { client, expectError, type Client } from '../support/api';
import { pingEvent } from '../../shared/events/catalog';
import { createTenant } from '../support/tenants';
import { eventually, verifyDelivery, useWebhookStack } from '../support/webhooks';

const HOOKS = '/api/v1/integrations/webhooks';
const ctx = useWebhookStack();

const tenantApi = async (scopes: Parameters<typeof createTenant>[0] = ['admin:all']) => {
  const t = await createTenant(scopes);
  return { ...t, api: client(ctx.stack.baseUrl, t) };
};

const expectFieldError = (res: { status: number; body: any }, path: string) => {
  expect(res.status).toBe(422);
  expect(res.body.success).toBe(false);
  expect(res.body.error.code).toBe('VALIDATION_ERROR');
  expect(res.body.error.details.errors.map((e: { path: string }) => e.path)).toEqual([path]);
};

describe('webhook subscriptions API', () => {
  let api: Client;
  beforeAll(async () => ({ api } = await tenantApi()));

  it('creates a subscription active by default and returns a generated secret only at creation', async () => {
    const res = await api.post(HOOKS, { url: `${ctx.receiver.url}?a=1`, events: ['inbox.conversation.created', 'crm.*'] });
    expect(res.status).toBe(201);
    const sub = res.body.data.subscription;
    expect(sub).toMatchObject({
      _id: expect.stringMatching(/^[0-9a-f]{24}$/),
      url: `${ctx.receiver.url}?a=1`,
      events: ['inbox.conversation.created', 'crm.*'],
      active: true,
    });
    expect(sub.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const fetched = await api.get(`${HOOKS}/${sub._id}`);
    expect(fetched.status).toBe(200);
    expect(fetched.body.data.subscription._id).toBe(sub._id);
    const listed = await api.get(HOOKS);
    for (const body of [fetched.body, listed.body]) expect(JSON.stringify(body)).not.toContain(sub.secret);
    expect(listed.body.data.subscriptions.map((s: { _id: string }) => s._id)).toContain(sub._id);
  });

  it('keeps a given secret and creates an inactive subscription when active is false', async () => {
    const res = await api.post(HOOKS, { url: `${ctx.receiver.url}?b=1`, events: ['*'], secret: 'my-own-secret-0123456789', active: false });
    expect(res.status).toBe(201);
    expect(res.body.data.subscription).toMatchObject({ active: false, secret: 'my-own-secret-0123456789' });
  });

  it('rejects an http URL with 422 on url', async () => {
    expectFieldError(await api.post(HOOKS, { url: 'http://example.com/hook', events: ['*'] }), 'url');
  });

  it('rejects unknown event names with 422 on events, and accepts wildcards', async () => {
    expectFieldError(await api.post(HOOKS, { url: `${ctx.receiver.url}?c=1`, events: ['inbox.conversation.exploded'] }), 'events');
    expectFieldError(await api.post(HOOKS, { url: `${ctx.receiver.url}?c=1`, events: ['nope.*'] }), 'events');
    expectFieldError(await api.post(HOOKS, { url: `${ctx.receiver.url}?c=1`, events: [] }), 'events');
    expect((await api.post(HOOKS, { url: `${ctx.receiver.url}?c=1`, events: ['inbox.*', 'inbox.conversation.*'] })).status).toBe(201);
  });

  it('answers 400 for a missing url and 422 for unknown fields', async () => {
    const missing = await api.post(HOOKS, { events: ['*'] });
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe('BAD_REQUEST');
    expectFieldError(await api.post(HOOKS, { url: `${ctx.receiver.url}?d=1`, events: ['*'], extra: 1 }), 'extra');
    expectFieldError(await api.post(HOOKS, { url: `${ctx.receiver.url}?d=1`, events: ['*'], secret: 'short' }), 'secret');
  });

  it('refuses the same URL twice in one workspace with 409, but not in another workspace', async () => {
    const url = `${ctx.receiver.url}?dup=1`;
    expect((await api.post(HOOKS, { url, events: ['*'] })).status).toBe(201);
    const dup = await api.post(HOOKS, { url, events: ['crm.*'] });
    expect(dup.status).toBe(409);
    expect(dup.body.error.code).toBe('CONFLICT');
    const other = await tenantApi();
    expect((await other.api.post(HOOKS, { url, events: ['*'] })).status).toBe(201);
  });

  it('updates events, url and active with PATCH, and 409s a PATCH onto a URL already in use', async () => {
    const a = (await api.post(HOOKS, { url: `${ctx.receiver.url}?p=a`, events: ['*'] })).body.data.subscription;
    await api.post(HOOKS, { url: `${ctx.receiver.url}?p=b`, events: ['*'] });
    const res = await api.patch(`${HOOKS}/${a._id}`, { events: ['auth.*'], active: false, url: `${ctx.receiver.url}?p=c` });
    expect(res.status).toBe(200);
    expect(res.body.data.subscription).toMatchObject({ _id: a._id, events: ['auth.*'], active: false, url: `${ctx.receiver.url}?p=c` });
    expect(res.body.data.subscription).not.toHaveProperty('secret');
    expect((await api.patch(`${HOOKS}/${a._id}`, { url: `${ctx.receiver.url}?p=b` })).status).toBe(409);
    expectFieldError(await api.patch(`${HOOKS}/${a._id}`, { url: 'http://insecure.example/hook' }), 'url');
    expectFieldError(await api.patch(`${HOOKS}/${a._id}`, { secret: 'x'.repeat(20) }), 'secret');
    const back = await api.patch(`${HOOKS}/${a._id}`, { active: true });
    expect(back.body.data.subscription).toMatchObject({ active: true, consecutiveFailures: 0 });
  });

  it('deletes a subscription, after which it is 404 and its URL is free again', async () => {
    const url = `${ctx.receiver.url}?del=1`;
    const sub = (await api.post(HOOKS, { url, events: ['*'] })).body.data.subscription;
    const del = await api.delete(`${HOOKS}/${sub._id}`);
    expect(del.status).toBe(200);
    expect(del.body.data).toMatchObject({ subscription: { _id: sub._id, url }, deleted: true });
    expect(del.body.data.subscription).not.toHaveProperty('secret');
    expect((await api.get(`${HOOKS}/${sub._id}`)).status).toBe(404);
    expect((await api.delete(`${HOOKS}/${sub._id}`)).status).toBe(404);
    expect((await api.post(HOOKS, { url, events: ['*'] })).status).toBe(201);
  });

  it('paginates the list with an exact total', async () => {
    const t = await tenantApi();
    for (let i = 0; i < 3; i++) await t.api.post(HOOKS, { url: `${ctx.receiver.url}?page=${i}`, events: ['*'] });
    const first = await t.api.get(`${HOOKS}?limit=2`);
    expect(first.body.data.pagination).toMatchObject({ total: 3, page: 1, limit: 2, pages: 2, hasMore: true });
    const next = await t.api.get(`${HOOKS}?limit=2&cursor=${first.body.data.pagination.nextCursor}`);
    expect(next.body.data.subscriptions).toHaveLength(1);
    expect(next.body.data.pagination.hasMore).toBe(false);
    const page2 = await t.api.get(`${HOOKS}?limit=2&page=2`);
    expect(page2.body.data.subscriptions.map((s: any) => s._id)).toEqual(next.body.data.subscriptions.map((s: any) => s._id));
    expect((await t.api.get(`${HOOKS}?limit=101`)).status).toBe(422);
  });
});

describe('webhook access control', () => {
  it('needs webhooks:read to list and webhooks:write to create', async () => {
    const reader = await tenantApi(['webhooks:read']);
    expect((await reader.api.get(HOOKS)).status).toBe(200);
    const denied = await reader.api.post(HOOKS, { url: `${ctx.receiver.url}?r=1`, events: ['*'] });
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('FORBIDDEN');
    const other = await tenantApi(['inbox:read']);
    expect((await other.api.get(HOOKS)).status).toBe(403);
  });

  it("answers 404 for another workspace's subscription, never revealing it", async () => {
    const owner = await tenantApi();
    const sub = (await owner.api.post(HOOKS, { url: `${ctx.receiver.url}?own=1`, events: ['*'] })).body.data.subscription;
    const stranger = await tenantApi();
    for (const res of [
      await stranger.api.get(`${HOOKS}/${sub._id}`),
      await stranger.api.patch(`${HOOKS}/${sub._id}`, { active: false }),
      await stranger.api.delete(`${HOOKS}/${sub._id}`),
      await stranger.api.get(`${HOOKS}/${sub._id}/deliveries`),
      await stranger.api.post(`${HOOKS}/${sub._id}/test`),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
    expect((await stranger.api.get(`${HOOKS}/not-an-id`)).status).toBe(404);
    expect((await owner.api.get(`${HOOKS}/${sub._id}`)).body.data.subscription.active).toBe(true);
  });
});

describe('event types and the delivery log', () => {
  it('serves the event catalog: each type with its category, status, description and data schema', async () => {
    const { api } = await tenantApi(['webhooks:read']);
    const res = await api.get(`${HOOKS}/event-types`);
    expect(res.status).toBe(200);
    const byType = new Map(res.body.data.eventTypes.map((e: { type: string }) => [e.type, e]));
    expect(byType.get('inbox.message.received')).toMatchObject({
      category: 'inbox',
      status: 'available',
      description: expect.stringMatching(/\w/),
      dataSchema: {
        type: 'object',
        required: ['message', 'conversation'],
        properties: {
          message: { required: expect.arrayContaining(['_id', 'content']) },
          conversation: { properties: { status: { enum: ['open', 'pending', 'snoozed', 'closed'] } } },
        },
      },
    });
    expect(byType.get('customer.contact.merged')).toMatchObject({
      status: 'available',
      dataSchema: { required: ['contact', 'mergedContact'] },
    });
    expect(byType.get('crm.lead.stage_changed')).toMatchObject({
      category: 'crm',
      status: 'available',
      dataSchema: { required: ['lead'], properties: { lead: { properties: { status: { enum: ['open', 'won', 'lost'] } } } } },
    });
    expect(byType.get('scheduling.booking.created')).toMatchObject({
      category: 'scheduling',
      status: 'available',
      dataSchema: { required: ['booking'] },
    });
    expect(byType.get('inbox.message.updated')).toMatchObject({ category: 'inbox', status: 'planned' });
    expect(byType.get('webhook.ping')).toMatchObject({
      status: 'available',
      subscribable: false,
      dataSchema: { required: ['subscription'] },
    });
    expect(res.body.data.wildcards).toEqual(expect.arrayContaining(['*', 'inbox.*', 'crm.*']));
    expect(res.body.data.wildcards).not.toContain('webhook.*');
  });

  it('accepts a subscription to exactly the types the catalog marks subscribable, and refuses the rest', async () => {
    const { api } = await tenantApi();
    const { eventTypes } = (await api.get(`${HOOKS}/event-types`)).body.data as { eventTypes: { type: string; subscribable: boolean }[] };
    const subscribable = eventTypes.filter((e) => e.subscribable).map((e) => e.type);
    expect(subscribable.length).toBeGreaterThan(0);
    expect((await api.post(HOOKS, { url: `${ctx.receiver.url}?all=1`, events: subscribable })).status).toBe(201);
    for (const { type } of eventTypes.filter((e) => !e.subscribable)) {
      expectError(await api.post(HOOKS, { url: `${ctx.receiver.url}?${type}=1`, events: [type] }), 422, 'VALIDATION_ERROR');
    }
    expectError(await api.post(HOOKS, { url: `${ctx.receiver.url}?wildcard=1`, events: ['webhook.*'] }), 422, 'VALIDATION_ERROR');
  });

  it('accepts a subscription to a planned type, which never fires yet', async () => {
    const { api } = await tenantApi();
    const res = await api.post(HOOKS, { url: `${ctx.receiver.url}?planned=1`, events: ['inbox.message.updated'] });
    expect(res.status).toBe(201);
  });

  it('sends a signed ping with POST …/test and logs it, filterable by status and event type', async () => {
    const { api } = await tenantApi();
    const sub = (await api.post(HOOKS, { url: `${ctx.receiver.url}?ping=1`, events: ['crm.*'] })).body.data.subscription;
    const sent = await api.post(`${HOOKS}/${sub._id}/test`);
    expect(sent.status).toBe(202);
    const { deliveryId } = sent.body.data.delivery;
    const [req] = await ctx.receiver
      .waitUntil((all) => all.some((r) => r.headers['x-webhook-delivery'] === deliveryId), 15_000)
      .then((all) => all.filter((r) => r.headers['x-webhook-delivery'] === deliveryId));
    const body = await verifyDelivery(sub.secret, req!);
    expect(body).toMatchObject({
      eventType: 'webhook.ping',
      workspaceId: sub.workspaceId,
      apiVersion: 'v1',
      data: { subscription: { _id: sub._id } },
    });
    expect(pingEvent.data.safeParse(body.data).error).toBeUndefined();
    expect(req!.headers).toMatchObject({
      'x-webhook-id': body.eventId,
      'x-webhook-event': 'webhook.ping',
      'x-webhook-attempt': '1',
      'webhook-id': body.eventId,
    });

    const done = await eventually(async () => {
      const d = (await api.get(`${HOOKS}/${sub._id}/deliveries/${deliveryId}`)).body.data.delivery;
      return d.status === 'success' && d;
    }, 5000);
    expect(done).toMatchObject({
      eventId: body.eventId,
      eventType: 'webhook.ping',
      httpStatus: 200,
      attemptNumber: 1,
      nextRetryAt: null,
      failureReason: null,
    });
    expect(done.attempts).toEqual([
      expect.objectContaining({ attemptNumber: 1, status: 'success', httpStatus: 200, latency: expect.any(Number) }),
    ]);

    const bySuccess = await api.get(`${HOOKS}/${sub._id}/deliveries?status=success`);
    expect(bySuccess.body.data.deliveries.map((d: any) => d.deliveryId)).toEqual([deliveryId]);
    expect(bySuccess.body.data.pagination.total).toBe(1);
    expect(bySuccess.body.data.deliveries[0]).not.toHaveProperty('attempts');
    expect((await api.get(`${HOOKS}/${sub._id}/deliveries?status=failed`)).body.data.pagination.total).toBe(0);
    const byType = await api.get(`${HOOKS}/${sub._id}/deliveries?eventType=webhook.ping&status=success`);
    expect(byType.body.data.pagination.total).toBe(1);
    expect((await api.get(`${HOOKS}/${sub._id}/deliveries?eventType=crm.lead.created`)).body.data.pagination.total).toBe(0);
    expect((await api.get(`${HOOKS}/${sub._id}/deliveries?status=bogus`)).status).toBe(422);
    expect((await api.get(`${HOOKS}/${sub._id}/deliveries?eventType=bogus.thing`)).status).toBe(422);
  });

  it('refuses to ping an inactive subscription with 409', async () => {
    const { api } = await tenantApi();
    const sub = (await api.post(HOOKS, { url: `${ctx.receiver.url}?off=1`, events: ['*'], active: false })).body.data.subscription;
    expect((await api.post(`${HOOKS}/${sub._id}/test`)).status).toBe(409);
  });
});
