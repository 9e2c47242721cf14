import { ParleyConnectionError, ParleyTimeoutError } from './errors.js';
import { nextDelayMs, retryable, retryAfterMs, type RetryPolicy } from './retry.js';

/** What one call sends with and how it retries: the client's settings, overridden per request. */
export interface Transport {
  policy: RetryPolicy;
  /** Per attempt: an attempt with no answer by then is abandoned (and retried like a lost connection). */
  timeoutMs: number;
  fetch: typeof globalThis.fetch;
  workspaceId?: string;
  idempotencyKey?: string;
}

const KEYED = new Set(['POST', 'PATCH']);

const newKey = () => `parley-client-${globalThis.crypto.randomUUID()}`;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** The error a failed attempt becomes; a caller's own abort is not the client's to retry or rename. */
const noAnswer = (error: unknown, timeoutMs: number, callerSignal: AbortSignal): ParleyConnectionError => {
  if (callerSignal.aborted) throw error;
  const cause = { cause: error };
  return (error as Error | undefined)?.name === 'TimeoutError'
    ? new ParleyTimeoutError(`No answer within ${timeoutMs} ms`, cause)
    : new ParleyConnectionError(`Connection failed: ${(error as Error | undefined)?.message ?? String(error)}`, cause);
};

/**
 * Sends `input`, retrying 429, 5xx and lost connections as the contract asks: after `Retry-After` when the
 * server names a wait (at once failing when that wait exceeds the policy's cap), else with exponential
 * backoff. A POST or PATCH carries one `Idempotency-Key` (the caller's, or one made here) on every attempt,
 * so a retry of a request that did reach the server is answered from its first result.
 * Resolves with the last response; rejects with a `ParleyConnectionError` when no attempt got an answer.
 */
export const send = async (input: Request, t: Transport): Promise<Response> => {
  const request = input.clone();
  if (t.workspaceId) request.headers.set('x-workspace-id', t.workspaceId);
  if (t.idempotencyKey) request.headers.set('Idempotency-Key', t.idempotencyKey);
  if (KEYED.has(request.method) && !request.headers.has('Idempotency-Key')) request.headers.set('Idempotency-Key', newKey());
  const body = request.body ? await request.arrayBuffer() : undefined;
  const attempt = () =>
    t
      .fetch(new Request(request, { body, signal: AbortSignal.any([request.signal, AbortSignal.timeout(t.timeoutMs)]) }))
      .catch((error: unknown) => noAnswer(error, t.timeoutMs, request.signal));
  for (let retry = 1; ; retry++) {
    const outcome = await attempt();
    if (outcome instanceof Response && !retryable(outcome.status)) return outcome;
    const wait = nextDelayMs(
      t.policy,
      retry,
      outcome instanceof Response ? retryAfterMs(outcome.headers.get('Retry-After'), Date.now()) : undefined,
    );
    if (wait === undefined) {
      if (outcome instanceof Response) return outcome;
      throw outcome;
    }
    if (outcome instanceof Response) await outcome.body?.cancel();
    await sleep(wait);
  }
};
