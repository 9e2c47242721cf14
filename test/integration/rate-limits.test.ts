import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LocalStack } from '../../infra/local/stack';
import { client, type ApiResponse } from '../support/api';
import { startTestStack } from '../support/stack';
import { createTenant } from '../support/tenants';
import { WINDOW_SECONDS } from '../../shared/domain/auth/rate-limit';

let stack: LocalStack;

beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack?.stop());

/**
 * Counts are kept per fixed 15-minute window, and the stack runs in this process: each test sets the clock
 * one second into a window that has not begun yet, so all its requests fall in one window (filling one
 * takes minutes under load) wherever the wall clock is.
 */
beforeEach(() => {
  const next = Math.floor(Date.now() / 1000 / WINDOW_SECONDS) + 1;
  vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true, now: (next * WINDOW_SECONDS + 1) * 1000 });
});
afterEach(() => void vi.useRealTimers());

const NO_SUCH_ID = '0'.repeat(24);

/** One request of each category. Bodies are deliberately invalid: the limit is applied before validation. */
const categories = [
  { category: 'auth', limit: 20, method: 'GET', path: '/api/v1/auth/token' },
  { category: 'read', limit: 300, method: 'GET', path: '/api/v1/integrations/webhooks' },
  { category: 'write', limit: 100, method: 'POST', path: '/api/v1/integrations/webhooks', body: {} },
  { category: 'delete', limit: 50, method: 'DELETE', path: `/api/v1/integrations/webhooks/${NO_SUCH_ID}` },
  { category: 'bulk', limit: 10, method: 'POST', path: '/api/v1/tags/bulk', body: {} },
] as const;

/** Limit and window end always; `remaining` when the caller knows which value this response must carry. */
const expectRateHeaders = (res: ApiResponse, limit: number, sentAt: number, remaining?: number) => {
  expect(res.headers.get('x-ratelimit-limit')).toBe(String(limit));
  if (remaining !== undefined) expect(res.headers.get('x-ratelimit-remaining')).toBe(String(remaining));
  const reset = Number(res.headers.get('x-ratelimit-reset'));
  expect(reset % WINDOW_SECONDS).toBe(0);
  expect(reset * 1000).toBeGreaterThan(sentAt);
  expect(reset * 1000).toBeLessThanOrEqual(Date.now() + WINDOW_SECONDS * 1000);
};

const resetOf = (res: ApiResponse) => res.headers.get('x-ratelimit-reset');

/** Sends `limit` requests, ten at a time, on a fresh token, then one more. */
const fillOneWindow = async (send: (api: ReturnType<typeof client>) => Promise<ApiResponse>, limit: number) => {
  const { token, workspaceId } = await createTenant(['admin:all']);
  const api = client(stack.baseUrl, { token, workspaceId });
  const sentAt = Date.now();
  const admitted: ApiResponse[] = [];
  for (let i = 0; i < limit; i += 10) {
    admitted.push(...(await Promise.all(Array.from({ length: Math.min(10, limit - i) }, () => send(api)))));
  }
  return { admitted, refused: await send(api), sentAt };
};

describe.each(categories)('the $category category ($limit per 15 minutes)', ({ limit, method, path, ...rest }) => {
  const body = 'body' in rest ? rest.body : undefined;

  it('admits exactly the limit, with the headers on every response, then answers 429 with Retry-After', async () => {
    const { admitted, refused, sentAt } = await fillOneWindow((api) => api.call(method, path, body), limit);
    expect(admitted.filter((r) => r.status === 429)).toEqual([]);
    for (const res of admitted) expectRateHeaders(res, limit, sentAt);
    const remaining = admitted.map((r) => Number(r.headers.get('x-ratelimit-remaining'))).sort((a, b) => b - a);
    expect(remaining).toEqual(Array.from({ length: limit }, (_, i) => limit - 1 - i));
    expect(refused.status).toBe(429);
    expectRateHeaders(refused, limit, sentAt, 0);
    const wait = Number(refused.headers.get('retry-after'));
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(900);
    expect(refused.body).toEqual({
      success: false,
      error: { code: 'TOO_MANY_REQUESTS', message: expect.stringContaining(`retry after ${wait} seconds`), details: { retryAfter: wait } },
    });
    expect(new Set([...admitted, refused].map(resetOf)).size).toBe(1);
  }, 360_000); // up to 300 real requests through the local stack, on 2 busy cores
});

describe('rate-limit isolation', () => {
  it('counts a bulk call only against bulk and an auth call only against auth', async () => {
    const { token, workspaceId } = await createTenant(['admin:all']);
    const api = client(stack.baseUrl, { token, workspaceId });
    const sentAt = Date.now();
    await api.post('/api/v1/tags/bulk', {});
    await api.get('/api/v1/auth/token');
    const write = await api.post('/api/v1/integrations/webhooks', {});
    expectRateHeaders(write, 100, sentAt, 99);
    const read = await api.get('/api/v1/integrations/webhooks');
    expectRateHeaders(read, 300, sentAt, 299);
  });

  it('keeps separate counters per token', async () => {
    const a = await createTenant(['admin:all']);
    const b = await createTenant(['admin:all']);
    const sentAt = Date.now();
    await client(stack.baseUrl, a).get('/api/v1/auth/token');
    expectRateHeaders(await client(stack.baseUrl, b).get('/api/v1/auth/token'), 20, sentAt, 19);
  });
});

describe('concurrent requests', () => {
  it('never admit more than the limit', async () => {
    const { token, workspaceId } = await createTenant(['admin:all']);
    const api = client(stack.baseUrl, { token, workspaceId });
    const results = await Promise.all(Array.from({ length: 60 }, () => api.get('/api/v1/auth/token')));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(20);
    expect(statuses.filter((s) => s === 429)).toHaveLength(40);
    const remaining = results.filter((r) => r.status === 200).map((r) => Number(r.headers.get('x-ratelimit-remaining')));
    expect(new Set(remaining).size).toBe(20);
  });
});
