import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalStack } from '../../infra/local/stack';
import { client, expectError, type Client } from '../support/api';
import { inFreshRateWindow } from '../support/rate-window';
import { startTestStack } from '../support/stack';
import { createTenant, tokenFor } from '../support/tenants';

let stack: LocalStack;
let api: Client;
let tenant: Awaited<ReturnType<typeof createTenant>>;

const WEBHOOKS = '/api/v1/integrations/webhooks';

beforeAll(async () => {
  stack = await startTestStack();
  tenant = await createTenant(['admin:all']);
  api = client(stack.baseUrl, tenant);
});
afterAll(() => stack?.stop());

describe('the workspace header', () => {
  it('is required: 400 BAD_REQUEST when missing', async () => {
    expectError(await api.as({ token: tenant.token }).get(WEBHOOKS), 400, 'BAD_REQUEST');
  });

  it('must be a 24-character workspace id: 400 when ill-formed', async () => {
    expectError(await api.as({ token: tenant.token, workspaceId: 'not-an-id' }).get(WEBHOOKS), 400, 'BAD_REQUEST');
  });

  it('refuses a workspace the token is not bound to with 403 WORKSPACE_ACCESS_DENIED, even if it exists', async () => {
    const other = await createTenant(['admin:all']);
    const res = await api.as({ token: tenant.token, workspaceId: other.workspaceId }).get(WEBHOOKS);
    expectError(res, 403, 'WORKSPACE_ACCESS_DENIED');
    expect(res.headers.get('x-ratelimit-limit')).toBe('300');
  });

  it('answers a missing, ill-formed or foreign workspace before the rate limit, without counting the request', async () => {
    inFreshRateWindow();
    const { token } = await tokenFor([tenant.workspaceId], ['webhooks:read']);
    const other = await createTenant(['admin:all']);
    const caller = api.as({ token, workspaceId: tenant.workspaceId });
    const remaining = async () => Number((await caller.get(WEBHOOKS)).headers.get('x-ratelimit-remaining'));
    const first = await remaining();
    const refused = [
      await api.as({ token }).get(WEBHOOKS),
      await api.as({ token, workspaceId: 'not-an-id' }).get(WEBHOOKS),
      await api.as({ token, workspaceId: other.workspaceId }).get(WEBHOOKS),
    ];
    expect(refused.map((r) => r.status)).toEqual([400, 400, 403]);
    expect(refused.map((r) => Number(r.headers.get('x-ratelimit-remaining')))).toEqual([first, first, first]);
    expect(await remaining()).toBe(first - 1);
  });

  it('authenticates before it looks at the workspace: a bad token with a bad workspace header is 401', async () => {
    expectError(await api.as({ token: `sk_live_${'b'.repeat(48)}`, workspaceId: 'nope' }).get(WEBHOOKS), 401, 'UNAUTHORIZED');
    expectError(await api.as({ workspaceId: tenant.workspaceId }).get(WEBHOOKS), 401, 'UNAUTHORIZED');
  });

  it('lets a token bound to several workspaces act in each of them', async () => {
    const other = await createTenant(['admin:all']);
    const { token } = await tokenFor([tenant.workspaceId, other.workspaceId], ['webhooks:read']);
    expect((await api.as({ token, workspaceId: tenant.workspaceId }).get(WEBHOOKS)).status).toBe(200);
    expect((await api.as({ token, workspaceId: other.workspaceId }).get(WEBHOOKS)).status).toBe(200);
  });
});

describe('scopes', () => {
  it('refuses a token without the route scope with 403 FORBIDDEN naming the scope', async () => {
    const { token } = await tokenFor([tenant.workspaceId], ['inbox:read']);
    const res = await api.as({ token, workspaceId: tenant.workspaceId }).get(WEBHOOKS);
    expectError(res, 403, 'FORBIDDEN');
    expect(res.body.error.details).toEqual({ requiredScope: 'webhooks:read' });
  });

  it('does not let a read scope write', async () => {
    const { token } = await tokenFor([tenant.workspaceId], ['webhooks:read']);
    expectError(await api.as({ token, workspaceId: tenant.workspaceId }).post(WEBHOOKS, {}), 403, 'FORBIDDEN');
  });

  it('lets admin:all pass every scope check', async () => {
    expect((await api.get(WEBHOOKS)).status).toBe(200);
  });

  it('checks the token before the scope: an unauthenticated request is 401, not 403', async () => {
    expectError(await api.as({ workspaceId: tenant.workspaceId }).get(WEBHOOKS), 401, 'UNAUTHORIZED');
  });
});

describe('request bodies: 400 for malformed or missing, 422 for invalid', () => {
  it('400 for malformed JSON', async () => {
    expectError(await api.post(WEBHOOKS, '{"url": '), 400, 'BAD_REQUEST');
  });

  it('400 when Content-Type is not application/json', async () => {
    expectError(
      await api.post(WEBHOOKS, JSON.stringify({ url: 'https://example.com', events: ['*'] }), { 'content-type': 'text/plain' }),
      400,
      'BAD_REQUEST',
    );
  });

  it('400 for an empty body or a JSON value that is not an object', async () => {
    expectError(await api.call('POST', WEBHOOKS, undefined, { 'content-type': 'application/json' }), 400, 'BAD_REQUEST');
    expectError(await api.post(WEBHOOKS, '[1,2]'), 400, 'BAD_REQUEST');
  });

  it('400 naming a missing required field', async () => {
    const res = await api.post(WEBHOOKS, { events: ['inbox.conversation.created'] });
    expectError(res, 400, 'BAD_REQUEST');
    expect(res.body.error.details.errors).toContainEqual({ path: 'url', message: 'Required' });
  });

  it('422 VALIDATION_ERROR with one {path, message} per failing field', async () => {
    const res = await api.post(WEBHOOKS, { url: 'http://example.com/hook', events: 'everything', active: 'yes' });
    expectError(res, 422, 'VALIDATION_ERROR');
    const paths = res.body.error.details.errors.map((e: { path: string }) => e.path).sort();
    expect(paths).toEqual(['active', 'events', 'url']);
    for (const e of res.body.error.details.errors) expect(e.message).toEqual(expect.any(String));
  });

  it('413 PAYLOAD_TOO_LARGE for a body over 256 KB', async () => {
    const res = await api.post(WEBHOOKS, { url: 'https://example.com', events: ['*'], secret: 'x'.repeat(300 * 1024) });
    expectError(res, 413, 'PAYLOAD_TOO_LARGE');
  });
});

describe('routing', () => {
  it('404 NOT_FOUND in the error wrapper for an unknown route, authenticated and rate-limited like any other', async () => {
    inFreshRateWindow();
    const { token } = await tokenFor([tenant.workspaceId], ['inbox:read']);
    const caller = api.as({ token });
    const first = await caller.get('/api/v1/no/such/thing');
    expectError(first, 404, 'NOT_FOUND');
    expect(first.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(first.headers.get('x-ratelimit-limit')).toBe('300');
    expect(first.headers.get('x-ratelimit-remaining')).toBe('299');
    expect((await caller.delete('/')).headers.get('x-ratelimit-limit')).toBe('50');
    expect((await caller.get('/api/v1/no/such/thing')).headers.get('x-ratelimit-remaining')).toBe('298');
  });

  it('401 before 404: an unknown route with a missing or bad token is unauthorised', async () => {
    expectError(await client(stack.baseUrl).get('/'), 401, 'UNAUTHORIZED');
    expectError(await api.as({ token: `sk_test_${'c'.repeat(48)}` }).post('/api/v1/no/such/thing', 'not json'), 401, 'UNAUTHORIZED');
  });

  it('404 with the allowed methods, in details and an Allow header, for a known path and an unsupported method', async () => {
    const res = await api.put(WEBHOOKS, {});
    expectError(res, 404, 'NOT_FOUND');
    expect(res.body.error.details.allowedMethods.sort()).toEqual(['GET', 'POST']);
    expect(res.headers.get('allow')?.split(', ').sort()).toEqual(['GET', 'POST']);
    expect(res.headers.get('x-ratelimit-limit')).toBe('100');
  });

  it('404 for an id that is not an object id, without a 500', async () => {
    expectError(await api.get(`${WEBHOOKS}/..%2F..%2Fetc`), 404, 'NOT_FOUND');
  });

  it('answers every success in the success wrapper with a request id', async () => {
    const res = await api.get(WEBHOOKS);
    expect(res.body.success).toBe(true);
    expect(res.body.data).toBeTypeOf('object');
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});
