import type { Scope } from '../../shared/domain/auth/scopes';
import type { RouteSpec } from '../../shared/http/route';
import type { HttpRoute } from './types';

type DeclaredSpec = RouteSpec<unknown, unknown, unknown>;

export interface RouteHandler {
  route: HttpRoute;
  /** The scope the handler declares: the only place a route's scope is written down. */
  scope: Scope | null;
  spec: DeclaredSpec;
}

const HTTP_HANDLER = /^functions\/http\/([\w-]+)\/([\w-]+)\.ts$/;

/**
 * Imports an HTTP handler module. The path is a template `functions/http/<area>/<name>.ts`, so a bundler
 * (esbuild, vite) can include every handler when a deployed function needs them (the OpenAPI document).
 */
const importHandler = (file: string): Promise<{ handler?: { scope?: Scope | null; spec?: DeclaredSpec } }> => {
  const [, area, name] = HTTP_HANDLER.exec(file) ?? [];
  if (!area || !name) throw new Error(`${file}: an HTTP handler is functions/http/<area>/<name>.ts`);
  return import(`../http/${area}/${name}.ts`);
};

/** Each route with what its handler declares, read from the handler module itself (for docs and route-wide tests). */
export const loadRouteHandlers = (routes: readonly HttpRoute[]): Promise<RouteHandler[]> =>
  Promise.all(
    routes.map(async (route) => {
      const { handler } = await importHandler(route.handler);
      if (!handler?.spec || handler.scope === undefined) throw new Error(`${route.handler} does not export a route() handler`);
      if (Boolean(handler.spec.public) !== Boolean(route.public)) {
        throw new Error(`${route.method} ${route.path}: the wiring and ${route.handler} disagree on whether the route is public`);
      }
      return { route, scope: handler.scope, spec: handler.spec };
    }),
  );
