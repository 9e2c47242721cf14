import createClient, { type Client } from 'openapi-fetch';
import { apiError } from './errors.js';
import { liveUpdates } from './realtime.js';
import { DEFAULT_RETRY, retryAfterMs } from './retry.js';
import type { paths } from './schema.js';
import { send, type Transport } from './transport.js';
import type { ApiPath, CallArgs, CallInit, ListItem, ListPath, Method, Operation, Success } from './types.js';

export interface ParleyClientOptions {
  /** Where the API is, e.g. `https://api.example.com` (the client adds `/api/v1`). */
  baseUrl: string;
  /** An API token, `sk_live_…` or `sk_test_…`. */
  token: string;
  /** The workspace every request acts in (`x-workspace-id`), unless a request names another. */
  workspaceId?: string;
  /** Retries of a 429, 5xx or lost connection after the first attempt (default 2). */
  maxRetries?: number;
  /** The longest wait accepted between attempts (default 30 s); a longer `Retry-After` fails at once. It also caps a realtime reconnection's wait. */
  maxRetryWaitMs?: number;
  /** Backoff base when the server names no wait (default 500 ms: 0.5 s, 1 s, 2 s…). */
  baseDelayMs?: number;
  /** Per attempt (default 60 s). */
  timeoutMs?: number;
  fetch?: typeof globalThis.fetch;
}

type Call<M extends Method> = <P extends ApiPath<M>>(path: P, ...init: CallArgs<Operation<M, P>>) => Promise<Success<Operation<M, P>>>;

/**
 * The typed Parley client. `get`, `post`, `put`, `patch` and `delete` take a path as the reference lists it
 * (without `/api/v1`), resolve with the success wrapper `{success: true, data}` and throw a `ParleyApiError`
 * subclass for any error answer. `list` pages through a list. `GET`, `POST`… are openapi-fetch's own methods
 * (full paths, `{data, error, response}`), with the same retries.
 */
export type ParleyClient = Client<paths> & {
  get: Call<'get'>;
  post: Call<'post'>;
  put: Call<'put'>;
  patch: Call<'patch'>;
  delete: Call<'delete'>;
  /** Every item of a list, page after page (following `nextCursor`, else the next `page`) while there are more. */
  list: <P extends ListPath>(path: P, ...init: CallArgs<Operation<'get', P>>) => AsyncIterable<ListItem<Operation<'get', P>>>;
} & ReturnType<typeof liveUpdates>;

const untyped = (init: unknown) => (init ?? {}) as CallInit<Record<string, unknown>> & { params?: { query?: Record<string, unknown> } };

export const createParleyClient = (opts: ParleyClientOptions): ParleyClient => {
  const defaults: Transport = {
    policy: {
      ...DEFAULT_RETRY,
      ...definedOf({ maxRetries: opts.maxRetries, maxRetryWaitMs: opts.maxRetryWaitMs, baseDelayMs: opts.baseDelayMs }),
    },
    timeoutMs: opts.timeoutMs ?? 60_000,
    fetch: opts.fetch ?? globalThis.fetch.bind(globalThis),
    workspaceId: opts.workspaceId,
  };
  const raw = createClient<paths>({
    baseUrl: opts.baseUrl,
    headers: { Authorization: `Bearer ${opts.token}` },
    fetch: (request) => send(request, defaults),
  });

  const call = async (method: Method, path: string, init: unknown): Promise<never> => {
    const { timeoutMs, idempotencyKey, workspaceId, maxRetries, ...fetchInit } = untyped(init);
    const transport: Transport = {
      ...defaults,
      ...definedOf({ timeoutMs, idempotencyKey, workspaceId }),
      policy: { ...defaults.policy, ...definedOf({ maxRetries }) },
    };
    const request = raw.request as (m: string, p: string, i: object) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
    const { data, error, response } = await request(method, `/api/v1${path}`, { ...fetchInit, fetch: (r: Request) => send(r, transport) });
    if (!response.ok) throw apiError(response, error, retryAfterMs(response.headers.get('Retry-After'), Date.now()));
    return data as never;
  };

  async function* list(path: string, init: unknown) {
    const given = untyped(init);
    let query = { ...given.params?.query };
    for (;;) {
      const { data } = (await call('get', path, { ...given, params: { ...given.params, query } })) as { data: Record<string, unknown> };
      const items = Object.entries(data).find(([key, value]) => key !== 'pagination' && Array.isArray(value))?.[1] as unknown[] | undefined;
      if (!items?.length) return;
      yield* items;
      const page = data.pagination as { page?: number; hasMore?: boolean; nextCursor?: string | null } | undefined;
      if (page?.nextCursor) query = { ...withoutPage(query), cursor: page.nextCursor };
      else if (page?.hasMore) query = { ...query, page: (page.page ?? 1) + 1 };
      else return;
    }
  }

  const calls: Omit<ParleyClient, keyof ReturnType<typeof liveUpdates>> = {
    ...raw,
    get: (path, ...init) => call('get', path, init[0]),
    post: (path, ...init) => call('post', path, init[0]),
    put: (path, ...init) => call('put', path, init[0]),
    patch: (path, ...init) => call('patch', path, init[0]),
    delete: (path, ...init) => call('delete', path, init[0]),
    list: (path, ...init) => list(path, init[0]) as AsyncIterable<never>,
  };
  return { ...calls, ...liveUpdates(calls, defaults.policy) };
};

const withoutPage = ({ page: _page, ...rest }: Record<string, unknown>) => rest;

/** The entries whose value is given, so that an undefined option does not override a default. */
const definedOf = <T extends object>(o: T): Partial<T> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
