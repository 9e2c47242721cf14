import { describe, expect, it } from 'vitest';
import { client, expectError, type ApiResponse } from '../support/api';
import { outboxEvents } from '../support/outbox';
import { useTestStack } from '../support/stack';
import { tokenFor } from '../support/tenants';

const env = useTestStack({ workers: false });
const CUSTOMERS = '/api/v1/contacts/customers';
const BURST = 30;
// Three tokens, so the burst and its retries stay inside each token's write allowance (100 per 15 minutes).
const TOKENS = 3;
const MAX_ROUNDS = 10;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a burst of concurrent creates on one workspace', () => {
  it('every request either succeeds or is told to retry with 429 and Retry-After; retried with its key, each creates exactly once', async () => {
    const t = await env.tenant();
    const callers = await Promise.all(
      Array.from({ length: TOKENS }, async () => {
        const { token } = await tokenFor([t.workspaceId], ['contacts:write']);
        return client(env.stack.baseUrl, { token, workspaceId: t.workspaceId });
      }),
    );
    const send = (i: number) => callers[i % TOKENS]!.post(CUSTOMERS, { name: `Burst ${i}` }, { 'Idempotency-Key': `burst-${i}` });

    let pending = Array.from({ length: BURST }, (_, i) => i);
    const told: ApiResponse[] = [];
    const created = new Map<number, string>();
    for (let round = 0; pending.length > 0 && round < MAX_ROUNDS; round++) {
      const answers = await Promise.all(pending.map(async (i) => ({ i, res: await send(i) })));
      const retry: number[] = [];
      for (const { i, res } of answers) {
        if (res.status === 201) created.set(i, res.body.data.customer._id);
        else {
          told.push(res);
          retry.push(i);
        }
      }
      pending = retry;
      if (pending.length) await sleep(1000 * Math.max(...told.map((r) => Number(r.headers.get('retry-after')))));
    }

    expect(pending).toEqual([]);
    for (const res of told) {
      expectError(res, 429, 'TOO_MANY_REQUESTS');
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect(new Set(created.values()).size).toBe(BURST);
    expect((await t.api.get(CUSTOMERS)).body.data.pagination.total).toBe(BURST);
    expect(await outboxEvents(t.workspaceId, 'customer.contact.created')).toHaveLength(BURST);
  }, 180_000);
});
