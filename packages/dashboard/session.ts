import { createParleyClient, type ParleyClient } from '../client/src/client';

export interface Session {
  token: string;
  workspaceId: string;
  workspaceName: string;
}

const KEY = 'parley.session';

/** Kept for the browser tab only (sessionStorage): closing the tab signs out. */
export const loadSession = (): Session | undefined => {
  const raw = sessionStorage.getItem(KEY);
  return raw ? (JSON.parse(raw) as Session) : undefined;
};
export const saveSession = (s: Session) => sessionStorage.setItem(KEY, JSON.stringify(s));
export const clearSession = () => sessionStorage.removeItem(KEY);

/** A token's mode is in its prefix: `sk_live_` acts on live data, `sk_test_` on the workspace's test data. */
export const isLive = (token: string): boolean => token.startsWith('sk_live_');

/**
 * The typed client for this session; the dashboard is served from the API's own origin. A 429 whose
 * `Retry-After` is longer than a moment is answered at once, so the page can say so instead of waiting.
 */
export const clientFor = (s: Partial<Session> & { token: string }): ParleyClient =>
  createParleyClient({ baseUrl: location.origin, token: s.token, workspaceId: s.workspaceId, maxRetryWaitMs: 2_000 });

/** An error answer: the API's own message and code, its status, its request id and, for a 429, the seconds it asks to wait. */
export class ApiFailure extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly retryAfterSeconds: number | undefined,
    readonly fields: { path: string; message: string }[] = [],
    readonly requestId: string | null = null,
  ) {
    super(message);
  }
}

interface ErrorBody {
  error?: { message?: string; details?: { errors?: { path: string; message: string }[] } };
}

/** The `data` of a success, or an `ApiFailure` thrown. */
export const unwrap = async <T>(call: Promise<{ data?: unknown; error?: unknown; response: Response }>): Promise<T> => {
  const { data, error, response } = await call;
  if (error !== undefined || data === undefined) {
    const { message, details } = (error as ErrorBody | undefined)?.error ?? {};
    const retryAfter = Number(response.headers.get('Retry-After'));
    throw new ApiFailure(
      message ?? `HTTP ${response.status}`,
      response.status,
      Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined,
      details?.errors ?? [],
      response.headers.get('X-Request-Id'),
    );
  }
  return (data as { data: T }).data;
};
