import * as z from 'zod';
import { wiring } from '../wiring';
import { AppError } from '../../shared/domain/errors';
import { route } from '../../shared/http/route';
import { resolve } from '../../shared/http/route-match';

/**
 * The `$default` route: authenticated and rate-limited like any other, then 404 for an unknown path, or
 * 404 with `allowedMethods` (and an `Allow` header) for a known path with another method.
 */
export const handler = route(
  { scope: null, workspace: false, unrouted: true, response: z.never() },
  async ({ request: { method, path } }) => {
    const { allowedMethods } = resolve(wiring.routes, method, path);
    if (allowedMethods.length > 0) throw new AppError('NOT_FOUND', `${method} is not supported on ${path}`, { allowedMethods });
    throw new AppError('NOT_FOUND', `No route for ${method} ${path}`);
  },
);
