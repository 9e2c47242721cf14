import { TooManyRequestsError } from '../errors';
import { RATE_LIMITS, rateCategory, rateHeaders, secondsUntil, windowOf } from '../../domain/auth/rate-limit';
import { stateOf, type HttpMiddleware } from '../state';

/** Reports the admission made during authentication and stamps the X-RateLimit-* headers. */
export const rateLimit = (): HttpMiddleware => ({
  before: (request) => {
    const state = stateOf(request);
    const category = rateCategory(request.event.requestContext.http.method, request.event.rawPath);
    const limit = RATE_LIMITS[category];
    const window = windowOf(state.now);
    const result = state.admission!;
    Object.assign(state.headers, rateHeaders(limit, result.used, window.end));
    if (!result.admitted) {
      throw new TooManyRequestsError(secondsUntil(window.end, state.now), `Rate limit of ${limit} ${category} requests per 15 minutes exceeded`);
    }
  },
});
