import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalStack } from '../../infra/local/stack';
import { admitRequest } from '../../shared/data/tokens';
import { revokeToken } from '../../shared/auth/tokens';
import { hashToken } from '../../shared/domain/auth/token';
import { client, expectError, type Client } from '../support/api';
import { startTestStack } from '../support/stack';
import { createTenant, tokenFor } from '../support/tenants';
import { outboxEvents } from '../support/outbox';
import { direct } from '../../shared/data/unit';

let stack: LocalStack;
let api: Client;
let tenant: Awaited<ReturnType<typeof createTenant>>;

beforeAll(async () => {
  stack = await startTestStack();
  tenant = await createTenant(['admin:all']);
  api = client(stack.baseUrl, { token: tenant.token, workspaceId: tenant.workspaceId });
});
afterAll(() => stack?.stop());

describe('authentication (contract § Authentication)', () => {
  it('lists the workspaces an admin:all token can access', async () => {
    const res = await api.get('/api/v1/auth/workspaces');
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.data.workspaces.map((w: { _id: string }) => w._id)).toEqual([tenant.workspaceId]);
    expect(res.body.data.pagination.total).toBe(1);
  });

  it('describes the calling token without revealing its secret or hash', async () => {
    const res = await api.get('/api/v1/auth/token');
    expect(res.status).toBe(200);
    expect(res.body.data.token).toMatchObject({ prefix: tenant.token.slice(0, 16), scopes: ['admin:all'] });
    expect(JSON.stringify(res.body)).not.toContain(tenant.token.slice(16));
  });

  it('refuses a missing token with 401 UNAUTHORIZED', async () => {
    expectError(await api.as({}).get('/api/v1/auth/workspaces'), 401, 'UNAUTHORIZED');
  });

  it('refuses a malformed Authorization header with 401', async () => {
    expectError(await api.get('/api/v1/auth/workspaces', { authorization: `Token ${tenant.token}` }), 401, 'UNAUTHORIZED');
  });

  it('refuses a well-formed but unknown token with 401', async () => {
    const unknown = `sk_live_${'a'.repeat(48)}`;
    expectError(await api.as({ token: unknown }).get('/api/v1/auth/workspaces'), 401, 'UNAUTHORIZED');
  });

  it('refuses an expired token with 401', async () => {
    const { token } = await tokenFor([tenant.workspaceId], ['admin:all'], { expiresAt: new Date(Date.now() + 1500).toISOString() });
    const caller = api.as({ token });
    expect((await caller.get('/api/v1/auth/token')).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1600));
    expectError(await caller.get('/api/v1/auth/token'), 401, 'UNAUTHORIZED');
  });

  it('refuses a revoked token on the very next request', async () => {
    const { token, record } = await tokenFor([tenant.workspaceId], ['admin:all']);
    const caller = api.as({ token });
    expect((await caller.get('/api/v1/auth/token')).status).toBe(200);
    await revokeToken(direct, record._id);
    expectError(await caller.get('/api/v1/auth/token'), 401, 'UNAUTHORIZED');
  });

  it('gives unknown, malformed, expired and revoked tokens the same answer, so a guesser cannot tell which existed', async () => {
    const revoked = await tokenFor([tenant.workspaceId], ['admin:all']);
    await revokeToken(direct, revoked.record._id);
    const expired = await tokenFor([tenant.workspaceId], ['admin:all'], { expiresAt: new Date(Date.now() + 1000).toISOString() });
    await new Promise((r) => setTimeout(r, 1100));
    const answers = await Promise.all(
      [revoked.token, expired.token, `sk_live_${'z'.repeat(48)}`, 'sk_live_short'].map((token) =>
        api.as({ token }).get('/api/v1/auth/token'),
      ),
    );
    for (const res of answers) expectError(res, 401, 'UNAUTHORIZED');
    expect(new Set(answers.map((r) => JSON.stringify({ error: r.body.error, headers: r.headers.get('x-ratelimit-limit') }))).size).toBe(1);
  });
});

describe('token lifecycle events', () => {
  it('creating and revoking a token each write exactly one event to the outbox', async () => {
    const { workspaceId } = await createTenant(['admin:all']);
    const { record } = await tokenFor([workspaceId], ['inbox:read']);
    await revokeToken(direct, record._id);
    const created = await outboxEvents(workspaceId, 'auth.token.created');
    const revoked = await outboxEvents(workspaceId, 'auth.token.revoked');
    expect(created.map((e) => (e.data.token as { _id: string })._id)).toContain(record._id);
    expect(revoked).toHaveLength(1);
    expect(revoked[0]!.data.token).toMatchObject({ _id: record._id, revokedAt: expect.any(String) });
    expect(JSON.stringify([...created, ...revoked])).not.toMatch(/sk_(live|test)_[0-9A-Za-z]{48}|hash/);
  });
});

describe('rate-limit windows across containers', () => {
  it('counts a request stamped with an older window in the newer window already stored, instead of looping', async () => {
    const { token } = await createTenant(['admin:all']);
    const hash = hashToken(token);
    const admit = (start: number) => admitRequest(hash, { category: 'read', window: { start }, limit: 2 });
    const later = await admit(1_800_000_900);
    expect(later).toMatchObject({ found: true, admitted: true, used: 1 });
    const skewed = await admit(1_800_000_000);
    expect(skewed).toMatchObject({ found: true, admitted: true, used: 2 });
    expect(await admit(1_800_000_000)).toMatchObject({ found: true, admitted: false });
  });
});
