import type { HttpMethod, HttpRoute } from './types';

/** What a route may set besides its method, path, handler and summary. */
export type RouteOptions = Partial<Pick<HttpRoute, 'access' | 'memoryMb' | 'timeoutSeconds' | 'public'>>;

/**
 * The one way to declare a route. `const route = areaRoutes('tags')` names the area whose handlers live in
 * `functions/http/tags/`; `route(method, path, file, summary)` is then the route answered by `<file>.ts`
 * there. A GET reads the table and any other method writes it, unless `options.access` says otherwise.
 */
export const areaRoutes =
  (area: string) =>
  (method: HttpMethod, path: string, file: string, summary: string, options: RouteOptions = {}): HttpRoute => ({
    method,
    path,
    handler: `functions/http/${area}/${file}.ts`,
    access: { table: method === 'GET' ? 'read' : 'write' },
    summary,
    ...options,
  });
