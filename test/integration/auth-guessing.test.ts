import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalStack } from '../../infra/local/stack';
import { client } from '../support/api';
import { startTestStack } from '../support/stack';
import { createTenant } from '../support/tenants';

let stack: LocalStack;
const LIMIT = 5;

beforeAll(async () => {
  stack = await startTestStack({ env: { AUTH_FAILURE_LIMIT: String(LIMIT) } });
});
afterAll(() => stack?.stop());

describe('failed authentications per source IP', () => {
  it('slows token guessing: after the allowance every request from that address gets 429, even a valid token', async () => {
    const { token } = await createTenant(['admin:all']);
    const guesser = client(stack.baseUrl, { token: `sk_live_${'x'.repeat(48)}` });
    for (let i = 0; i < LIMIT; i++) expect((await guesser.get('/api/v1/auth/token')).status).toBe(401);

    const blocked = await guesser.get('/api/v1/auth/token');
    expect(blocked.status).toBe(429);
    expect(blocked.body.error).toMatchObject({ code: 'TOO_MANY_REQUESTS', message: expect.stringMatching(/retry after \d+ seconds/) });
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);

    const valid = await client(stack.baseUrl, { token }).get('/api/v1/auth/token');
    expect(valid.status).toBe(429);
  });
});
