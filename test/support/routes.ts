import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { z } from 'zod';
import { wiring } from '../../infra/wiring';
import type { HttpRoute } from '../../infra/wiring/types';
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

const root = resolve(import.meta.dirname, '..', '..');

/** Imports every wiring route's handler module and reads `handler.scope` and `handler.spec` from it. */
export const loadRoutes = async (): Promise<LoadedRoute[]> =>
  Promise.all(
    wiring.routes.map(async (route) => {
      const mod = (await import(pathToFileURL(resolve(root, route.handler)).href)) as { handler?: { scope?: Scope | null; spec?: Spec } };
      const handler = mod.handler;
      if (!handler || handler.scope === undefined || !handler.spec) {
        throw new Error(`${route.handler} (${route.method} ${route.path}) exports no route() handler with scope and spec`);
      }
      return {
        route,
        key: `${route.method} ${route.path}`,
        scope: handler.scope,
        spec: handler.spec,
        pathParams: [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!),
      };
    }),
  );
