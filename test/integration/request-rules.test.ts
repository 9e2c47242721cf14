import { afterAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { objectId } from '../../shared/ids';
import { expectError, type Client } from '../support/api';
import { outboxEvents } from '../support/outbox';
import { startReceiver } from '../support/https-receiver';
import { gatedFetch } from '../support/response-gate';
import { useTestStack } from '../support/stack';
import { agentId } from '../support/members';
import { loadRoutes } from '../support/routes';

const env = useTestStack({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
// The subscriptions' receiver answers 200: what a tenant emits is delivered once, not retried for the whole file.
const receiver = await startReceiver();
afterAll(() => receiver.stop());

const created = async (res: Promise<{ status: number; body: any }>) => {
  const { status, body } = await res;
  expect(status, JSON.stringify(body)).toBe(201);
  return Object.values(body.data)[0] as { _id: string };
};

/** One resource of each kind, with the paths of its body-less actions and its PATCH route. */
const resources = async (api: Client) => {
  const customer = await created(api.post('/api/v1/contacts/customers', { name: 'Ada', attributes: { plan: 'pro' } }));
  const conversation = await created(api.post('/api/v1/inbox/conversations', { customerId: customer._id, subject: 'Hi' }));
  const tag = await created(api.post('/api/v1/tags', { name: 'VIP', color: '#112233' }));
  const hook = await created(api.post('/api/v1/integrations/webhooks', { url: receiver.url, events: ['*'] }));
  return {
    customer: `/api/v1/contacts/customers/${customer._id}`,
    conversation: `/api/v1/inbox/conversations/${conversation._id}`,
    tag: `/api/v1/tags/${tag._id}`,
    subscription: `/api/v1/integrations/webhooks/${hook._id}`,
  };
};

const paths = (res: { body: any }) => res.body.error.details.errors.map((e: { path: string }) => e.path).sort();

describe('a route that declares no body', () => {
  it('accepts no body, or an empty JSON object', async () => {
    const { api } = await env.tenant();
    const r = await resources(api);
    expect((await api.post(`${r.customer}/block`)).status).toBe(200);
    expect((await api.post(`${r.customer}/unblock`, {})).status).toBe(200);
    expect((await api.post(`${r.subscription}/test`, {})).status).toBe(202);
    expectError(await api.post(`${r.subscription}/retry/${objectId()}`, {}), 404, 'NOT_FOUND');
  });

  it('refuses a body that is not JSON, not sent as JSON, or not an object (400), on every such route', async () => {
    const { api } = await env.tenant();
    const r = await resources(api);
    for (const path of [
      `${r.customer}/block`,
      `${r.conversation}/unassign`,
      `${r.subscription}/test`,
      `${r.subscription}/retry/${objectId()}`,
    ]) {
      expectError(await api.post(path, '{"force": tru'), 400, 'BAD_REQUEST');
      expectError(await api.post(path, '{}', { 'content-type': 'text/plain' }), 400, 'BAD_REQUEST');
      expectError(await api.post(path, '[]'), 400, 'BAD_REQUEST');
      expectError(await api.post(path, 'null'), 400, 'BAD_REQUEST');
    }
    expectError(await api.call('DELETE', r.tag, 'not json'), 400, 'BAD_REQUEST');
  });

  it('refuses every field sent to it as unknown, one 422 entry per field', async () => {
    const { api } = await env.tenant();
    const r = await resources(api);
    const res = await api.post(`${r.customer}/block`, { force: true, reason: 'spam' });
    expectError(res, 422, 'VALIDATION_ERROR');
    expect(res.body.error.details.errors).toEqual([
      { path: 'force', message: 'Unknown field' },
      { path: 'reason', message: 'Unknown field' },
    ]);
    expect(paths(await api.post(`${r.conversation}/unassign`, { assigneeId: null }))).toEqual(['assigneeId']);
    expect((await api.get(r.customer)).body.data.customer.blocked).toBe(false);
  });
});

describe('query parameters', () => {
  it('are refused on every GET route that does not declare them, each by name (422)', async () => {
    const { api } = await env.tenant();
    const r = await resources(api);
    const gets = [
      '/api/v1/auth/token',
      '/api/v1/auth/workspaces',
      '/api/v1/contacts/customers',
      r.customer,
      `${r.customer}/tags`,
      '/api/v1/inbox/conversations',
      r.conversation,
      `${r.conversation}/messages`,
      `${r.conversation}/tags`,
      '/api/v1/tags',
      r.tag,
      '/api/v1/integrations/webhooks',
      '/api/v1/integrations/webhooks/event-types',
      r.subscription,
      `${r.subscription}/deliveries`,
      `${r.subscription}/deliveries/${objectId()}`,
    ];
    for (const path of gets) {
      const res = await api.get(`${path}?bogus=1&sort=name`);
      expectError(res, 422, 'VALIDATION_ERROR');
      expect(paths(res), path).toEqual(['bogus', 'sort']);
    }
  });

  it('are refused on other methods too, while declared ones still work', async () => {
    const { api } = await env.tenant();
    const r = await resources(api);
    expect(paths(await api.patch(`${r.tag}?force=1`, { name: 'Gold' }))).toEqual(['force']);
    expect((await api.get('/api/v1/tags?page=1&limit=5')).status).toBe(200);
    expect((await api.get(`${r.subscription}/deliveries?status=failed&limit=5`)).status).toBe(200);
  });

  it('are refused whatever their name, prototype names included, on every GET route of the wiring', async () => {
    const { api } = await env.tenant();
    const gets = (await loadRoutes()).filter((r) => r.route.method === 'GET' && !r.pathParams.length && !r.route.public);
    for (const { route } of gets) {
      for (const name of ['__proto__', 'constructor']) {
        const res = await api.get(`${route.path}?${name}=1`);
        expect(res.status, `${route.path}?${name}=1`).toBeGreaterThanOrEqual(400);
        expect(paths(res), `${route.path}?${name}=1`).toContain(name);
      }
    }
  });

  it('take integers in plain decimal digits only (no hex, sign, space, exponent, fraction or leading zero)', async () => {
    const { api } = await env.tenant();
    const member = await agentId(api);
    const integers = [
      ['/api/v1/tags?limit=', 'limit'],
      ['/api/v1/inbox/conversations?page=', 'page'],
      ['/api/v1/ai/knowledge-base/search?q=x&limit=', 'limit'],
      [
        `/api/v1/scheduling/availability?assigneeId=${member}&from=2030-01-01T00:00:00Z&to=2030-01-02T00:00:00Z&durationMinutes=`,
        'durationMinutes',
      ],
    ];
    for (const [prefix, field] of integers) {
      for (const spelling of ['0x10', '%2B15', '%2015', '15%20', '1e2', '015', '15.0', '', '-15', '１５']) {
        const res = await api.get(`${prefix}${spelling}`);
        expectError(res, 422, 'VALIDATION_ERROR');
        expect(paths(res), `${prefix}${spelling}`).toEqual([field]);
      }
      expect((await api.get(`${prefix}15`)).status, `${prefix}15`).toBe(200);
    }
  });

  it('on every list route of the wiring, refuse cursor with page (422 on page); a cursor page reports no page number', async () => {
    const { api } = await env.tenant();
    for (const name of ['Alpha', 'Bravo', 'Charlie']) await created(api.post('/api/v1/tags', { name, color: '#112233' }));
    const lists = (await loadRoutes()).filter(
      (r) => r.route.method === 'GET' && !r.pathParams.length && r.spec.query instanceof z.ZodObject && 'cursor' in r.spec.query.shape,
    );
    expect(lists.length).toBeGreaterThan(10);
    for (const { route } of lists) {
      const res = await api.get(`${route.path}?page=3&cursor=x`);
      expectError(res, 422, 'VALIDATION_ERROR');
      expect(paths(res), route.path).toContain('page');
    }
    const first = await api.get('/api/v1/tags?limit=1&page=2');
    expect(first.body.data.pagination).toMatchObject({ page: 2, pages: 3, hasMore: true });
    const next = await api.get(`/api/v1/tags?limit=1&cursor=${first.body.data.pagination.nextCursor}`);
    expect(next.body.data.tags.map((t: { name: string }) => t.name)).toEqual(['Charlie']);
    expect(next.body.data.pagination).toEqual({ total: 3, page: null, limit: 1, pages: 3, hasMore: false, nextCursor: null });
  });

  it('page by number at most 10,000 items deep (a bounded skip); deeper is 422 on page', async () => {
    const { api } = await env.tenant();
    for (const list of ['/api/v1/tags', '/api/v1/inbox/conversations', '/api/v1/contacts/customers', '/api/v1/scheduling/bookings']) {
      expect((await api.get(`${list}?page=101&limit=100`)).status, list).toBe(200);
      expect((await api.get(`${list}?page=10001&limit=1`)).status, list).toBe(200);
      for (const query of ['page=102&limit=100', 'page=10002&limit=1', 'page=100000&limit=100']) {
        const res = await api.get(`${list}?${query}`);
        expectError(res, 422, 'VALIDATION_ERROR');
        expect(paths(res), `${list}?${query}`).toEqual(['page']);
      }
    }
  });
});

describe('a PATCH that changes nothing', () => {
  it.each([
    ['customer', (r: Awaited<ReturnType<typeof resources>>) => r.customer, { name: 'Ada', attributes: { plan: 'pro' } }],
    ['conversation', (r: Awaited<ReturnType<typeof resources>>) => r.conversation, { subject: 'Hi', priority: 'none' }],
    ['tag', (r: Awaited<ReturnType<typeof resources>>) => r.tag, { name: 'VIP', color: '#112233' }],
    ['subscription', (r: Awaited<ReturnType<typeof resources>>) => r.subscription, { url: receiver.url, events: ['*'], active: true }],
  ])('returns the %s unchanged (200) for {} or the current values, and emits no event', async (kind, pathOf, same) => {
    const { api, workspaceId } = await env.tenant();
    const path = pathOf(await resources(api));
    const before = (await api.get(path)).body.data[kind];
    const eventsBefore = (await outboxEvents(workspaceId)).length;
    for (const body of [{}, same]) {
      const res = await api.patch(path, body);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      // A GET may add derived fields (a tag's usage counts) to what a PATCH returns.
      expect(before).toMatchObject(res.body.data[kind]);
    }
    expect((await api.get(path)).body.data[kind]).toEqual(before);
    expect(await outboxEvents(workspaceId)).toHaveLength(eventsBefore);
  });
});

describe('text the storage cannot hold exactly', () => {
  it('refuses an unpaired surrogate in any string or key of a body with 422 naming each, and stores nothing', async () => {
    const { api } = await env.tenant();
    const lone = '"\\ud800x"';
    const res = await api.post('/api/v1/contacts/customers', `{"name":${lone},"attributes":{${lone}:1,"ok":${lone}}}`);
    expectError(res, 422, 'VALIDATION_ERROR');
    expect(res.body.error.details.errors).toHaveLength(3);
    expect(res.body.error.details.errors.map((e: { path: string }) => e.path)).toContain('name');
    expect((await api.get('/api/v1/contacts/customers')).body.data.pagination.total).toBe(0);
  });

  it('refuses a body that is not valid UTF-8 with 400', async () => {
    const { token, workspaceId } = await env.tenant();
    const bytes = Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]);
    const res = await gatedFetch(`${env.stack.baseUrl}/api/v1/tags`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'x-workspace-id': workspaceId, 'content-type': 'application/json' },
      body: bytes,
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ success: false, error: { code: 'BAD_REQUEST', message: 'Request body is not valid UTF-8' } });
  });

  it('answers a request line and headers over 16 KB in the error wrapper, as JSON', async () => {
    const res = await gatedFetch(`${env.stack.baseUrl}/api/v1/tags?q=${'x'.repeat(20_000)}`);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.json()).toMatchObject({ success: false, error: { code: 'BAD_REQUEST' } });
  });
});
