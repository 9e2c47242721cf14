import { randomUUID } from 'node:crypto';
import type { LocalStack } from '../../infra/local/stack';
import { RATE_LIMITS } from '../../shared/domain/auth/rate-limit';
import { createTenant, tokenFor } from '../support/tenants';
import { measureInterleaved, type Latency, type Section } from './measure';
import { tokenPool } from './token-pool';

/** Each op runs this many times (plus warm-up); the replays all use one token, within its write budget. */
const REQUESTS = 80;
const WARMUP = 10;
const CUSTOMERS = '/api/v1/contacts/customers';

/**
 * The cost of `Idempotency-Key` on a creating POST: the same create without a key (baseline), with a
 * fresh key (claim + the record committed in the create's own transaction), and a keyed repeat answered
 * from the record.
 */
export const run = async (stack: LocalStack): Promise<Section[]> => {
  const { workspaceId } = await createTenant(['admin:all']);
  const nextToken = tokenPool(workspaceId, RATE_LIMITS.write, 'contacts:write');
  const post = async (token: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${stack.baseUrl}${CUSTOMERS}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'x-workspace-id': workspaceId, 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ name: 'Bench Customer' }),
    });
    await res.text();
    if (res.status !== 201) throw new Error(`${CUSTOMERS}: unexpected ${res.status}`);
  };
  // Replays: keys are scoped to the token, so the replayed key is created once on a token of its own.
  const { token: replayToken } = await tokenFor([workspaceId], ['contacts:write']);
  await post(replayToken, { 'Idempotency-Key': 'bench-replay' });
  const { unkeyed, keyed, replay } = await measureInterleaved(
    {
      unkeyed: async () => post(await nextToken()),
      keyed: async () => post(await nextToken(), { 'Idempotency-Key': randomUUID() }),
      replay: async () => post(replayToken, { 'Idempotency-Key': 'bench-replay' }),
    },
    { requests: REQUESTS, warmup: WARMUP },
  );

  const row = (name: string, l: Latency) => [name, l.p50Ms, l.p99Ms, l.p50Ms / unkeyed.p50Ms];
  return [
    {
      title: 'Idempotency-Key: keyed vs unkeyed POST /contacts/customers',
      columns: ['request', 'p50 ms', 'p99 ms', 'p50 ÷ unkeyed'],
      rows: [row('unkeyed POST (baseline)', unkeyed), row('keyed POST, fresh key', keyed), row('keyed repeat, replayed', replay)],
      notes: [
        `${REQUESTS} requests per row, one at a time, the three kinds interleaved in rotating order; every request succeeds, none is rate limited.`,
        "A fresh key adds one conditional PutItem (the claim) and one item to the create's own transaction (the record with the response).",
      ],
    },
  ];
};
