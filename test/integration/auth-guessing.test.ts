import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LocalStack } from '../../infra/local/stack';
import { client } from '../support/api';
import { inFreshRateWindow } from '../support/rate-window';
import { startTestStack } from '../support/stack';
import { createTenant } from '../support/tenants';
import { WINDOW_SECONDS } from '../../shared/domain/auth/rate-limit';

let stack: LocalStack;
const LIMIT = 5;

beforeAll(async () => {
  stack = await startTestStack({ env: { AUTH_FAILURE_LIMIT: String(LIMIT) } });
});
afterAll(() => stack?.stop());

/**
 * Failures are counted per address in fixed 15-minute windows: each test starts in a window of its own, and
 * leaves the next one free for a test that moves on to it.
 */
const freshWindow = () => inFreshRateWindow(2);

const guesser = () => client(stack.baseUrl, { token: `sk_live_${'x'.repeat(48)}` });

const spendAllowance = async () => {
  for (let i = 0; i < LIMIT; i++) expect((await guesser().get('/api/v1/auth/token')).status).toBe(401);
};

describe('failed authentications per source IP', () => {
  it('slows token guessing: after the allowance a token that is not valid gets 429 until the window ends', async () => {
    freshWindow();
    await spendAllowance();
    const blocked = await guesser().get('/api/v1/auth/token');
    expect(blocked.status).toBe(429);
    expect(blocked.body.error).toMatchObject({ code: 'TOO_MANY_REQUESTS', message: expect.stringMatching(/retry after \d+ seconds/) });
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(WINDOW_SECONDS - 60);
    expect((await client(stack.baseUrl, { token: 'Bearer-less garbage' }).get('/api/v1/auth/token')).status).toBe(429);

    vi.setSystemTime(Date.now() + WINDOW_SECONDS * 1000);
    expect((await guesser().get('/api/v1/auth/token')).status).toBe(401);
  });

  it('never refuses a valid token for what others did from its address', async () => {
    const { token, workspaceId } = await createTenant(['admin:all']);
    freshWindow();
    await spendAllowance();
    expect((await guesser().get('/api/v1/auth/token')).status).toBe(429);

    const valid = client(stack.baseUrl, { token, workspaceId });
    const introspection = await valid.get('/api/v1/auth/token');
    expect(introspection.status).toBe(200);
    expect(introspection.headers.get('x-ratelimit-limit')).toBe('20');
    expect((await valid.get('/api/v1/tags')).status).toBe(200);
  });

  it('does not count a request that carries no credential', async () => {
    freshWindow();
    const anonymous = client(stack.baseUrl);
    for (let i = 0; i < LIMIT * 2; i++) {
      const res = await anonymous.get('/api/v1/tags');
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('UNAUTHORIZED');
    }
    await spendAllowance();
    expect((await guesser().get('/api/v1/auth/token')).status).toBe(429);
  });

  it('answers the favicon and everything the reference and dashboard pages fetch without a 401, and counts none of it', async () => {
    freshWindow();
    const favicon = await fetch(`${stack.baseUrl}/favicon.ico`);
    expect(favicon.status).toBe(200);
    expect(favicon.headers.get('content-type')).toMatch(/^image\//);

    const fetched = new Set<string>();
    for (const page of ['/docs', '/dashboard']) {
      const html = await (await fetch(`${stack.baseUrl}${page}`)).text();
      for (const [, url] of html.matchAll(/(?:src|href|spec-url)="(\/[^"#]*)"/g)) fetched.add(url!);
    }
    expect([...fetched].sort()).toEqual(
      expect.arrayContaining(['/api/v1/openapi.json', '/dashboard/app.css', '/dashboard/app.js', '/docs', '/docs/redoc.standalone.js']),
    );
    for (let view = 0; view < LIMIT; view++) {
      for (const url of [...fetched, '/favicon.ico']) expect([url, (await fetch(`${stack.baseUrl}${url}`)).status]).toEqual([url, 200]);
    }
    await spendAllowance();
    expect((await guesser().get('/api/v1/auth/token')).status).toBe(429);
  });
});
