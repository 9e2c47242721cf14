import { TooManyRequestsError } from '../../domain/errors';
import { RATE_LIMITS, secondsUntil, windowOf } from '../../domain/auth/rate-limit';
import { stateOf, type HttpMiddleware } from '../state';

/** Refuses a request its token's window did not admit (counted during authentication). */
export const rateLimit = (): HttpMiddleware => ({
  before: (request) => {
    const state = stateOf(request);
    const { admitted, category } = state.admission!;
    if (!admitted) {
      const wait = secondsUntil(windowOf(state.now).end, state.now);
      throw new TooManyRequestsError(wait, `Rate limit of ${RATE_LIMITS[category]} ${category} requests per 15 minutes exceeded`);
    }
  },
});
