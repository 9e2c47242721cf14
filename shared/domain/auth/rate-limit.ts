export type RateCategory = 'read' | 'write' | 'delete' | 'auth' | 'bulk';

/** Requests per window, per token, per category (contract § Limits). */
export const RATE_LIMITS: Record<RateCategory, number> = { read: 300, write: 100, delete: 50, auth: 20, bulk: 10 };
export const WINDOW_SECONDS = 15 * 60;

/** A bulk call (a `/bulk` or `/batch` route) counts only against bulk and an auth call only against auth. */
export const rateCategory = (method: string, path: string): RateCategory => {
  if (path.startsWith('/api/v1/auth/')) return 'auth';
  const segments = path.split('/');
  if (segments.includes('bulk') || segments.includes('batch')) return 'bulk';
  const m = method.toUpperCase();
  if (m === 'GET' || m === 'HEAD') return 'read';
  if (m === 'DELETE') return 'delete';
  return 'write';
};

/** Fixed windows aligned to the epoch. */
export const windowOf = (now: Date): { start: number; end: number } => {
  const seconds = Math.floor(now.getTime() / 1000);
  const start = seconds - (seconds % WINDOW_SECONDS);
  return { start, end: start + WINDOW_SECONDS };
};

export const rateHeaders = (limit: number, used: number, resetAt: number): Record<string, string> => ({
  'X-RateLimit-Limit': String(limit),
  'X-RateLimit-Remaining': String(Math.max(0, limit - used)),
  'X-RateLimit-Reset': String(resetAt),
});

export const secondsUntil = (resetAt: number, now: Date): number => Math.max(1, resetAt - Math.floor(now.getTime() / 1000));

export type AdmissionRefusal =
  | { kind: 'unbound' | 'limited'; used: number }
  | { kind: 'count-in'; start: number }
  | { kind: 'open-window' };

/**
 * Why a conditional admission was refused, judged from the token item as stored: the token is not bound to
 * the workspace (not counted: its 403 comes first), the window is full, the window is open with room (another
 * request opened it, or one with a clock ahead opened a later one: count in it), or the stored window is older
 * than this one (open a new one).
 */
export const admissionRefusal = (
  stored: { window: unknown; count: unknown; bound: boolean },
  start: number,
  limit: number,
): AdmissionRefusal => {
  const window = typeof stored.window === 'number' ? stored.window : undefined;
  const count = typeof stored.count === 'number' ? stored.count : 0;
  if (!stored.bound) return { kind: 'unbound', used: window === start ? count : 0 };
  if (window === undefined || window < start) return { kind: 'open-window' };
  if (window === start && count >= limit) return { kind: 'limited', used: limit };
  return { kind: 'count-in', start: window };
};
