import type { z } from 'zod';
import { wiring } from '../../functions/wiring';
import { loadRouteHandlers } from '../../functions/wiring/route-handlers';
import type { HttpRoute } from '../../functions/wiring/types';
import type { Scope } from '../../shared/domain/auth/scopes';
import type { RouteSpec } from '../../shared/http/route';

export type Spec = RouteSpec<z.ZodType | undefined, z.ZodType | undefined, z.ZodType | undefined>;

/** A wiring route with the scope and schemas its handler module declares (the one source of both). */
export interface LoadedRoute {
  route: HttpRoute;
  /** `METHOD /path`, for test names and reports. */
  key: string;
  scope: Scope | null;
  spec: Spec;
  /** Path parameter names in template order, e.g. `['id', 'deliveryId']`. */
  pathParams: string[];
}

/** Every wiring route with the scope and schemas its handler module declares. */
export const loadRoutes = async (): Promise<LoadedRoute[]> =>
  (await loadRouteHandlers(wiring.routes)).map(({ route, scope, spec }) => ({
    route,
    key: `${route.method} ${route.path}`,
    scope,
    spec: spec as Spec,
    pathParams: [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!),
  }));
