import { DeleteCommand, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { dynamo } from '../../shared/aws/dynamo';
import { config } from '../../shared/config';
import { createParleyClient } from '../../packages/client/src/client';
import { createWorkspace } from '../../shared/data/workspaces';
import { gatedFetch } from '../support/response-gate';
import { useTestStack } from '../support/stack';
import { tokenFor } from '../support/tenants';
import { direct } from '../../shared/data/unit';

/**
 * Token management for the dashboard (docs/reference/api.md), driven through the typed client generated from the
 * OpenAPI document: if the document or the client drifts from the routes, these calls stop compiling or passing.
 */
const env = useTestStack();

const sdk = (token: string, workspaceId?: string) =>
  createParleyClient({ baseUrl: env.stack.baseUrl, token, workspaceId, fetch: gatedFetch });

/** A token's own item, found as the API finds it by id: its pointer names its hash. */
const storedTokenItem = async (id: string): Promise<Record<string, unknown> & { pk: string; sk: string }> => {
  const Key = (await dynamo().send(new GetCommand({ TableName: config().TABLE_NAME, Key: { pk: `TOKENID#${id}`, sk: 'TOKEN' } }))).Item!;
  const { Item } = await dynamo().send(new GetCommand({ TableName: config().TABLE_NAME, Key: { pk: `TOKEN#${Key.hash}`, sk: 'TOKEN' } }));
  expect(Item).toBeDefined();
  return Item as Record<string, unknown> & { pk: string; sk: string };
};

const admin = async () => {
  const t = await env.tenant();
  return { ...t, sdk: sdk(t.token, t.workspaceId) };
};

describe('API token management (/api/v1/auth/tokens)', () => {
  it('creates a token whose secret is shown once and works at once, and lists it without the secret', async () => {
    const { sdk: api, workspaceId } = await admin();
    const created = await api.POST('/api/v1/auth/tokens', { body: { name: 'CRM sync', scopes: ['crm:read', 'tags:read'] } });
    expect(created.response.status).toBe(201);
    const token = created.data!.data.token;
    expect(token).toMatchObject({
      name: 'CRM sync',
      scopes: ['crm:read', 'tags:read'],
      workspaceIds: [workspaceId],
      environment: 'test',
      status: 'active',
      livemode: false,
    });
    expect(token.token).toMatch(/^sk_test_[0-9A-Za-z]{48}$/);
    expect(token.prefix).toBe(token.token.slice(0, 16));

    const me = await sdk(token.token, workspaceId).GET('/api/v1/auth/token');
    expect(me.response.status).toBe(200);
    expect(me.data!.data).toMatchObject({ token: { _id: token._id, scopes: ['crm:read', 'tags:read'] } });

    const listed = await api.GET('/api/v1/auth/tokens');
    expect(listed.response.status).toBe(200);
    expect(listed.data!.data.tokens.map((t) => t._id)).toContain(token._id);
    expect(JSON.stringify(listed.data)).not.toContain(token.token.slice(16));
    expect(listed.data!.data.tokens.every((t) => !('token' in t))).toBe(true);
  });

  it('revokes a token: its very next request gets 401, the list shows it revoked, a second revoke is 409', async () => {
    const { sdk: api, workspaceId } = await admin();
    const { token } = (await api.POST('/api/v1/auth/tokens', { body: { name: 'short-lived', scopes: ['tags:read'] } })).data!.data;
    const revoked = await api.DELETE('/api/v1/auth/tokens/{id}', { params: { path: { id: token._id } } });
    expect(revoked.response.status).toBe(200);
    expect(revoked.data!.data.token).toMatchObject({ _id: token._id, status: 'revoked', revokedAt: expect.any(String) });

    const refused = await sdk(token.token, workspaceId).GET('/api/v1/tags', {});
    expect(refused.response.status).toBe(401);
    expect(refused.error).toMatchObject({ success: false, error: { code: 'UNAUTHORIZED' } });
    const listed = (await api.GET('/api/v1/auth/tokens')).data!.data.tokens.find((t) => t._id === token._id);
    expect(listed).toMatchObject({ status: 'revoked' });
    const again = await api.DELETE('/api/v1/auth/tokens/{id}', { params: { path: { id: token._id } } });
    expect(again.response.status).toBe(409);
  });

  it('never widens: a workspace the creator lacks is 403 WORKSPACE_ACCESS_DENIED, a live token from a test token 403 FORBIDDEN', async () => {
    const { sdk: api } = await admin();
    const elsewhere = await createWorkspace(direct, 'not mine');
    const foreign = await api.POST('/api/v1/auth/tokens', {
      body: { name: 'wider', scopes: ['tags:read'], workspaceIds: [elsewhere._id] },
    });
    expect(foreign.response.status).toBe(403);
    expect(foreign.error).toMatchObject({ error: { code: 'WORKSPACE_ACCESS_DENIED' } });
    const live = await api.POST('/api/v1/auth/tokens', { body: { name: 'live', scopes: ['tags:read'], test: false } });
    expect(live.response.status).toBe(403);
    expect(live.error).toMatchObject({ error: { code: 'FORBIDDEN' } });
  });

  it("grants several of the creator's workspaces, and a live creator may make a test token", async () => {
    const [a, b] = await Promise.all([createWorkspace(direct, 'a'), createWorkspace(direct, 'b')]);
    const { token: liveAdmin } = await tokenFor([a._id, b._id], ['admin:all'], { livemode: true });
    const res = await sdk(liveAdmin, a._id).POST('/api/v1/auth/tokens', {
      body: { name: 'both', scopes: ['inbox:read'], workspaceIds: [a._id, b._id], test: true },
    });
    expect(res.response.status).toBe(201);
    expect(res.data!.data.token).toMatchObject({ workspaceIds: [a._id, b._id], environment: 'test' });
  });

  it('finds a token made before its id pointer (indexed by id on the token item itself) by its id, and revokes it', async () => {
    const { sdk: api, workspaceId } = await admin();
    const created = (await api.POST('/api/v1/auth/tokens', { body: { name: 'old', scopes: ['tags:read'] } })).data!.data.token;
    const main = await storedTokenItem(created._id);
    const table = config().TABLE_NAME;
    await dynamo().send(new DeleteCommand({ TableName: table, Key: { pk: `TOKENID#${created._id}`, sk: 'TOKEN' } }));
    await dynamo().send(
      new UpdateCommand({
        TableName: table,
        Key: { pk: main.pk, sk: main.sk },
        UpdateExpression: 'SET gsi1pk = :p, gsi1sk = :s',
        ExpressionAttributeValues: { ':p': `TOKENID#${created._id}`, ':s': 'TOKEN' },
      }),
    );
    expect((await sdk(created.token, workspaceId).GET('/api/v1/auth/token')).response.status).toBe(200);
    const revoked = await api.DELETE('/api/v1/auth/tokens/{id}', { params: { path: { id: created._id } } });
    expect(revoked.data!.data.token).toMatchObject({ _id: created._id, status: 'revoked' });
    expect((await sdk(created.token, workspaceId).GET('/api/v1/auth/token')).response.status).toBe(401);
  });

  it('reads a token stored before the mode was spelled livemode (environment: test) as a test-mode token', async () => {
    const { sdk: api, workspaceId } = await admin();
    const created = (await api.POST('/api/v1/auth/tokens', { body: { name: 'old', scopes: ['tags:read'] } })).data!.data.token;
    const table = config().TABLE_NAME;
    const main = await storedTokenItem(created._id);
    const bindings = await dynamo().send(
      new QueryCommand({
        TableName: table,
        KeyConditionExpression: 'pk = :p AND sk = :s',
        ExpressionAttributeValues: { ':p': `WS#${workspaceId}`, ':s': `TOKEN#${created._id}` },
      }),
    );
    const items = [main, ...bindings.Items!];
    expect(items).toHaveLength(2);
    for (const item of items)
      await dynamo().send(
        new UpdateCommand({
          TableName: table,
          Key: { pk: item.pk, sk: item.sk },
          UpdateExpression: 'REMOVE livemode SET environment = :e',
          ExpressionAttributeValues: { ':e': 'test' },
        }),
      );
    const old = sdk(created.token, workspaceId);
    expect((await old.GET('/api/v1/auth/token')).data!.data.token).toMatchObject({ livemode: false, environment: 'test' });
    const listed = (await api.GET('/api/v1/auth/tokens')).data!.data.tokens.find((t) => t._id === created._id);
    expect(listed).toMatchObject({ livemode: false, environment: 'test', status: 'active' });
  });

  it('refuses an expiry in the past, an unknown scope and a non-admin caller', async () => {
    const { sdk: api, workspaceId } = await admin();
    const past = await api.POST('/api/v1/auth/tokens', { body: { name: 'old', scopes: ['tags:read'], expiresAt: '2020-01-01T00:00:00Z' } });
    expect(past.response.status).toBe(422);
    expect(past.error).toMatchObject({ error: { code: 'VALIDATION_ERROR', details: { errors: [{ path: 'expiresAt' }] } } });
    const unknown = await api.POST('/api/v1/auth/tokens', { body: { name: 'x', scopes: ['everything'] } });
    expect(unknown.response.status).toBe(422);
    const { token: reader } = await tokenFor([workspaceId], ['tags:write']);
    const forbidden = await sdk(reader, workspaceId).POST('/api/v1/auth/tokens', { body: { name: 'x', scopes: ['tags:write'] } });
    expect(forbidden.error).toMatchObject({ error: { code: 'FORBIDDEN', details: { requiredScope: 'admin:all' } } });
  });
});

describe('the API description, served', () => {
  it('answers GET /api/v1/openapi.json without a token, as the bare document with no rate-limit headers', async () => {
    const res = await fetch(`${env.stack.baseUrl}/api/v1/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('x-ratelimit-limit')).toBeNull();
    const doc = (await res.json()) as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toContain('/api/v1/auth/tokens');
  });

  it('serves the reference page at /docs with the renderer from the installed package, not a CDN', async () => {
    const page = await fetch(`${env.stack.baseUrl}/docs`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('spec-url="/api/v1/openapi.json"');
    expect([...html.matchAll(/src="([^"]+)"/g)].map((m) => m[1])).toEqual(['/docs/redoc.standalone.js']);
    const bundle = await fetch(`${env.stack.baseUrl}/docs/redoc.standalone.js`);
    expect(bundle.status).toBe(200);
    expect(Number(bundle.headers.get('content-length'))).toBeGreaterThan(500_000);
  });
});
