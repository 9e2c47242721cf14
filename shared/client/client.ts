import createClient, { type Client } from 'openapi-fetch';
import { DEFAULT_RETRY, retryable, retryAfterMs, retryDelayMs, type RetryPolicy } from './retry';
import type { paths } from './schema';

export interface ParleyClientOptions {
  /** Where the API is, e.g. `https://api.example.com` (the paths carry `/api/v1`). */
  baseUrl: string;
  /** An API token, `sk_live_…` or `sk_test_…`. */
  token: string;
  /** The workspace every request acts in (`x-workspace-id`). */
  workspaceId?: string;
  retry?: Partial<RetryPolicy>;
  fetch?: typeof globalThis.fetch;
  /** For tests: how to wait. */
  sleep?: (ms: number) => Promise<void>;
}

const KEYED = new Set(['POST', 'PATCH']);

const newKey = () => `parley-client-${globalThis.crypto.randomUUID()}`;

/**
 * `fetch` that retries 429 and 5xx as the contract asks: after `Retry-After` when the server sends it, else
 * with exponential backoff. A POST or PATCH carries an `Idempotency-Key` (the caller's, or one made here)
 * on every attempt, so a retry of a request that did reach the server is answered from its first result.
 */
export const retryingFetch = (opts: Pick<ParleyClientOptions, 'retry' | 'fetch' | 'sleep'> = {}) => {
  const policy = { ...DEFAULT_RETRY, ...opts.retry };
  const doFetch = opts.fetch ?? globalThis.fetch.bind(globalThis);
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  return async (input: Request): Promise<Response> => {
    const request = input.clone();
    if (KEYED.has(request.method) && !request.headers.has('Idempotency-Key')) request.headers.set('Idempotency-Key', newKey());
    const body = request.body ? await request.arrayBuffer() : undefined;
    for (let attempt = 1; ; attempt++) {
      const response = await doFetch(new Request(request, { body }));
      if (!retryable(response.status) || attempt >= policy.attempts) return response;
      await response.body?.cancel();
      await sleep(retryDelayMs(policy, attempt, retryAfterMs(response.headers.get('Retry-After'), Date.now())));
    }
  };
};

export type ParleyClient = Client<paths>;

/** The typed Parley client: every path, parameter and body of the OpenAPI document, checked by TypeScript. */
export const createParleyClient = (opts: ParleyClientOptions): ParleyClient =>
  createClient<paths>({
    baseUrl: opts.baseUrl,
    headers: { Authorization: `Bearer ${opts.token}`, ...(opts.workspaceId ? { 'x-workspace-id': opts.workspaceId } : {}) },
    fetch: retryingFetch(opts),
  });
