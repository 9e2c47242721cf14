import { AppError, TooManyRequestsError } from '../../domain/errors';
import { config } from '../../config';
import { hashToken, sameHash, tokenState, TOKEN_PATTERN } from '../../domain/auth/token';
import { RATE_LIMITS, rateCategory, rateHeaders, secondsUntil, windowOf } from '../../domain/auth/rate-limit';
import { isObjectId } from '../../ids';
import { admitRequest, findToken } from '../../data/tokens';
import { countIn, increment } from '../../data/rate-limits';
import { header, stateOf, type HttpMiddleware } from '../state';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** One answer for an unknown, malformed, expired or revoked token, so a guesser learns nothing about which. */
const INVALID_TOKEN = 'Invalid API token';

/**
 * Resolves the bearer token (401 on anything but an active token). Failed attempts are counted per source
 * IP, and an IP over its allowance is refused whatever it presents, so guessing tokens is slow.
 * The lookup also counts the request against the token's rate-limit window (one conditional update), unless
 * the request names no well-formed workspace or one the token is not bound to: the workspace check (400/403)
 * comes before the rate limit, so those are answered without being counted. `workspace` and `rateLimit`
 * act on the outcome, in pipeline order.
 */
export const authenticate = (opts: { workspace: boolean }): HttpMiddleware => ({
  before: async (request) => {
    const state = stateOf(request);
    const { event } = request;
    const window = windowOf(state.now);
    const failures = `AUTHFAIL#${event.requestContext?.http?.sourceIp ?? 'unknown'}`;

    const token = BEARER.exec(header(event, 'authorization') ?? '')?.[1];
    const hash = token && TOKEN_PATTERN.test(token) ? hashToken(token) : undefined;
    const category = rateCategory(event.requestContext.http.method, event.rawPath);
    const workspaceId = opts.workspace ? header(event, 'x-workspace-id') : undefined;
    const countable = !opts.workspace || isObjectId(workspaceId ?? '');
    const lookup = !hash
      ? undefined
      : countable
        ? admitRequest(hash, { category, window, limit: RATE_LIMITS[category], workspaceId })
        : findToken(hash, { category, window });
    const [admission, priorFailures] = await Promise.all([lookup, countIn(failures, window)]);

    if (priorFailures >= config().AUTH_FAILURE_LIMIT) {
      throw new TooManyRequestsError(secondsUntil(window.end, state.now), 'Too many failed authentication attempts from this address');
    }
    const found = admission?.found && hash && sameHash(admission.token.hash, hash) ? admission : undefined;
    if (!found || tokenState(found.token, state.now) !== 'active') {
      await increment(failures, window);
      throw new AppError('UNAUTHORIZED', token ? INVALID_TOKEN : 'Missing or malformed Authorization header; expected "Bearer <API_TOKEN>"');
    }
    state.token = found.token;
    state.admission = { admitted: found.admitted, used: found.used, category };
    // From here on the caller is known: every response, errors included, reports its window.
    Object.assign(state.headers, rateHeaders(RATE_LIMITS[category], found.used, window.end));
  },
});
