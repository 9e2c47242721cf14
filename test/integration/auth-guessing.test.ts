import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalStack } from '../../infra/local/stack';
import { client } from '../support/api';
import { startTestStack } from '../support/stack';
import { createTenant } from '../support/tenants';
import { WINDOW_SECONDS } from '../../shared/domain/auth/rate-limit';
import { sleep } from '../support/webhooks';

let stack: LocalStack;
const LIMIT = 5;
/** Far more than the run takes, even on a loaded machine. */
const MARGIN_MS = 30_000;

/**
 * Failures are counted per address in fixed 15-minute windows, so a run that crosses a window's end starts
 * counting over half-way and proves nothing: near the end of one, wait for the next to begin.
 */
const awayFromWindowEnd = async () => {
  const window = WINDOW_SECONDS * 1000;
  const left = window - (Date.now() % window);
  if (left < MARGIN_MS) await sleep(left + 100);
};

beforeAll(async () => {
  stack = await startTestStack({ env: { AUTH_FAILURE_LIMIT: String(LIMIT) } });
});
afterAll(() => stack?.stop());

describe('failed authentications per source IP', () => {
  it('slows token guessing: after the allowance every request from that address gets 429, even a valid token', { timeout: 90_000 }, async () => {
    const { token } = await createTenant(['admin:all']);
    await awayFromWindowEnd();
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
