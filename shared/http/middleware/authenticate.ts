import { AppError, TooManyRequestsError } from '../../domain/errors';
import { config } from '../../config';
import { hashToken, sameHash, tokenState, TOKEN_PATTERN } from '../../domain/auth/token';
import { RATE_LIMITS, rateCategory, rateHeaders, secondsUntil, windowOf } from '../../domain/auth/rate-limit';
import { isObjectId } from '../../ids';
import { admitRequest, findToken } from '../../data/tokens';
import { countFailedAuthentication, failedAuthentications } from '../../data/rate-limits';
import { header, stateOf, type HttpMiddleware } from '../state';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** One answer for an unknown, malformed, expired or revoked token, so a guesser learns nothing about which. */
const INVALID_TOKEN = 'Invalid API token';
const MISSING_TOKEN = 'Missing or malformed Authorization header; expected "Bearer <API_TOKEN>"';

/**
 * Resolves the bearer token (401 on anything but an active token). A request with no credential at all is
 * refused without being counted; any other failure is counted per source IP, and an address over its
 * allowance gets 429 for every token that is not valid, so guessing is slow. A valid token is never refused
 * for what others did from its address, and its lookup reads no failure count.
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
    const credential = header(event, 'authorization')?.trim();
    if (!credential) throw new AppError('UNAUTHORIZED', MISSING_TOKEN);

    const token = BEARER.exec(credential)?.[1];
    const hash = token && TOKEN_PATTERN.test(token) ? hashToken(token) : undefined;
    const category = rateCategory(event.requestContext.http.method, event.rawPath);
    const workspaceId = opts.workspace ? header(event, 'x-workspace-id') : undefined;
    const countable = !opts.workspace || isObjectId(workspaceId ?? '');
    const admission = !hash
      ? undefined
      : countable
        ? await admitRequest(hash, { category, window, limit: RATE_LIMITS[category], workspaceId })
        : await findToken(hash, { category, window });

    const found = admission?.found && hash && sameHash(admission.token.hash, hash) ? admission : undefined;
    if (!found || tokenState(found.token, state.now) !== 'active') {
      const sourceIp = event.requestContext?.http?.sourceIp ?? 'unknown';
      if ((await failedAuthentications(sourceIp, window)) >= config().AUTH_FAILURE_LIMIT) {
        throw new TooManyRequestsError(secondsUntil(window.end, state.now), 'Too many failed authentication attempts from this address');
      }
      await countFailedAuthentication(sourceIp, window);
      throw new AppError('UNAUTHORIZED', token ? INVALID_TOKEN : MISSING_TOKEN);
    }
    state.token = found.token;
    state.admission = { admitted: found.admitted, used: found.used, category };
    // From here on the caller is known: every response, errors included, reports its window.
    Object.assign(state.headers, rateHeaders(RATE_LIMITS[category], found.used, window.end));
  },
});
