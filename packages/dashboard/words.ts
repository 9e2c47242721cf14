import { ApiFailure } from './session';

/**
 * A failed action in the words of whoever clicked it: what did not happen (`what`, e.g. "Not sent") and what
 * to do about it, instead of the API's message for developers. `inactive` says whether the endpoint is
 * deactivated as the page now knows it (a 409 on an action it refuses then means just that).
 */
export const inWords = (err: unknown, what: string, inactive = false): string => {
  if (!(err instanceof ApiFailure)) return `${what}: Parley could not be reached. Check that it is running, then try again.`;
  switch (err.status) {
    case 401:
      return `${what}: your token no longer works (revoked or expired). Sign out, then sign in with another.`;
    case 403:
      return `${what}: your token may not change webhook endpoints. Sign in with a token that has the webhooks:write scope.`;
    case 404:
      return `${what}: this endpoint no longer exists (it was deleted).`;
    case 409:
      return inactive ? `${what}: the endpoint is deactivated. Reactivate it first.` : `${what}: ${err.message}`;
    case 422:
      return `${what}: ${err.fields.length ? err.fields.map((f) => (f.path ? `${f.path}: ${f.message}` : f.message)).join('; ') : err.message}`;
    case 429:
      return `${what}: too many requests just now. Try again in ${err.retryAfterSeconds ?? 'a few'} seconds.`;
    default:
      return `${what}: Parley failed to answer (HTTP ${err.status}). Try again${err.requestId ? `; its logs: npx parley logs --request ${err.requestId}` : ''}.`;
  }
};
