/// <reference lib="dom" />
import { createParleyClient, type ParleyClient } from '../client/src/client';

export interface Session {
  token: string;
  workspaceId: string;
}

const KEY = 'parley.session';

/** Kept for the browser tab only (sessionStorage): closing the tab signs out. */
export const loadSession = (): Session | undefined => {
  const raw = sessionStorage.getItem(KEY);
  return raw ? (JSON.parse(raw) as Session) : undefined;
};
export const saveSession = (s: Session) => sessionStorage.setItem(KEY, JSON.stringify(s));
export const clearSession = () => sessionStorage.removeItem(KEY);

/** The typed client for this session; the dashboard is served from the API's own origin. */
export const clientFor = (s: Partial<Session> & { token: string }): ParleyClient =>
  createParleyClient({ baseUrl: location.origin, token: s.token, workspaceId: s.workspaceId });

/** The `data` of a success, or the API's own error message thrown. */
export const unwrap = async <T>(call: Promise<{ data?: unknown; error?: unknown; response: Response }>): Promise<T> => {
  const { data, error, response } = await call;
  if (error !== undefined || data === undefined) {
    const message = (error as { error?: { message?: string } } | undefined)?.error?.message;
    throw new Error(message ?? `HTTP ${response.status}`);
  }
  return (data as { data: T }).data;
};
