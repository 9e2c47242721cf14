import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
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

const root = resolve(import.meta.dirname, '..', '..');

/** Each route with what its handler declares, read from the handler module itself (for docs and route-wide tests). */
export const loadRouteHandlers = (routes: readonly HttpRoute[]): Promise<RouteHandler[]> =>
  Promise.all(
    routes.map(async (route) => {
      const { handler } = (await import(pathToFileURL(resolve(root, route.handler)).href)) as { handler?: { scope?: Scope | null; spec?: DeclaredSpec } };
      if (!handler?.spec || handler.scope === undefined) throw new Error(`${route.handler} does not export a route() handler`);
      return { route, scope: handler.scope, spec: handler.spec };
    }),
  );
