import { AppError, TooManyRequestsError } from '../../domain/errors';
import { config } from '../../config';
import { hashToken, sameHash, tokenState, TOKEN_PATTERN } from '../../domain/auth/token';
import { RATE_LIMITS, rateCategory, rateHeaders, secondsUntil, windowOf } from '../../domain/auth/rate-limit';
import { admitRequest } from '../../data/tokens';
import { countIn, increment } from '../../data/rate-limits';
import { header, stateOf, type HttpMiddleware } from '../state';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * Resolves the bearer token (401 on anything but an active token). Failed attempts are counted per source
 * IP, and an IP over its allowance is refused whatever it presents, so guessing tokens is slow.
 * The lookup also counts the request against the token's rate-limit window (one conditional update);
 * `rateLimit` acts on the outcome after the workspace check, in pipeline order.
 */
export const authenticate = (): HttpMiddleware => ({
  before: async (request) => {
    const state = stateOf(request);
    const { event } = request;
    const window = windowOf(state.now);
    const failures = `AUTHFAIL#${event.requestContext?.http?.sourceIp ?? 'unknown'}`;

    const token = BEARER.exec(header(event, 'authorization') ?? '')?.[1];
    const hash = token && TOKEN_PATTERN.test(token) ? hashToken(token) : undefined;
    const category = rateCategory(event.requestContext.http.method, event.rawPath);
    const [admission, priorFailures] = await Promise.all([
      hash ? admitRequest(hash, category, window, RATE_LIMITS[category]) : undefined,
      countIn(failures, window),
    ]);

    if (priorFailures >= config().AUTH_FAILURE_LIMIT) {
      throw new TooManyRequestsError(secondsUntil(window.end, state.now), 'Too many failed authentication attempts from this address');
    }
    const found = admission?.found ? admission : undefined;
    const status = found && hash && sameHash(found.token.hash, hash) ? tokenState(found.token, state.now) : undefined;
    const problem = !token
      ? 'Missing or malformed Authorization header; expected "Bearer <API_TOKEN>"'
      : !status
        ? 'Invalid API token'
        : status !== 'active'
          ? `API token is ${status}`
          : undefined;
    if (problem || !found) {
      await increment(failures, window);
      throw new AppError('UNAUTHORIZED', problem ?? 'Invalid API token');
    }
    state.token = found.token;
    state.admission = { admitted: found.admitted, used: found.used, category };
    // From here on the caller is known: every response, errors included, reports its window.
    Object.assign(state.headers, rateHeaders(RATE_LIMITS[category], found.used, window.end));
  },
});
