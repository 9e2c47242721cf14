import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { wiring } from '../../functions/wiring';
import { SCOPES, type Scope } from '../../shared/domain/auth/scopes';
import { client, type ApiResponse } from '../support/api';
import { loadRoutes, type LoadedRoute } from '../support/routes';
import { useTestStack } from '../support/stack';
import { conformance } from '../support/conformance';
import { openApiDocument } from '../../infra/docs/document';
import { tokenFor } from '../support/tenants';

/**
 * Scope matrix (docs/contributing/testing.md): every wiring route, called with a token holding each single scope. The
 * route's own scope (from its handler module) and admin:all pass the scope check; every other scope gets
 * 403 FORBIDDEN naming the required scope. Routes without a scope (/auth/*) admit any valid token.
 */
const routes = await loadRoutes();
const document = await openApiDocument();
const env = useTestStack();

let workspaceId: string;
const tokens = new Map<Scope, string>();

beforeAll(async () => {
  ({ workspaceId } = await env.tenant());
  // One token per scope: each is used once per route, well inside every rate-limit category.
  await Promise.all(SCOPES.map(async (scope) => tokens.set(scope, (await tokenFor([workspaceId], [scope])).token)));
});

/** A well-formed id nobody has: the scope check runs before any lookup, so it need not exist. */
const someId = () => randomBytes(12).toString('hex');

const call = (route: LoadedRoute, token: string): Promise<ApiResponse> => {
  const path = route.pathParams.reduce((p, name) => p.replace(`{${name}}`, someId()), route.route.path);
  const api = client(env.stack.baseUrl, { token, workspaceId });
  return api.call(route.route.method, path, route.spec.body ? {} : undefined);
};

/** `passed` when the answer shows the scope check let the request through, else what stopped it. */
const outcome = (res: ApiResponse): string => {
  if (res.status === 403 && res.body?.error?.code === 'FORBIDDEN')
    return `403 FORBIDDEN requiredScope=${res.body.error.details?.requiredScope}`;
  if ([401, 403, 429].includes(res.status)) return `stopped before the scope check: ${res.status} ${res.body?.error?.code}`;
  return 'passed';
};

const expected = (route: LoadedRoute, held: Scope): string =>
  route.scope === null || held === 'admin:all' || held === route.scope ? 'passed' : `403 FORBIDDEN requiredScope=${route.scope}`;

describe('the scope matrix', () => {
  it('covers every route of the wiring, each with a handler that declares a known scope or none', () => {
    expect(routes.map((r) => r.key).sort()).toEqual(wiring.routes.map((r) => `${r.method} ${r.path}`).sort());
    for (const r of routes) expect(r.scope === null || (SCOPES as readonly string[]).includes(r.scope), r.key).toBe(true);
    // A matrix with no scoped routes would pass vacuously.
    expect(routes.filter((r) => r.scope !== null).length).toBeGreaterThan(routes.length / 2);
  });

  for (const route of routes) {
    const who = route.scope === null ? 'any valid token' : `${route.scope} and admin:all`;
    it(`${route.key} admits ${who}${route.scope === null ? '' : ` and refuses the ${SCOPES.length - 2} other scopes with 403 FORBIDDEN naming ${route.scope}`}`, async () => {
      const seen: Record<string, string> = {};
      const want: Record<string, string> = {};
      // Each answer, refused or let through, is also one the document lists for the route.
      const undocumented: Record<string, string[]> = {};
      await Promise.all(
        SCOPES.map(async (held) => {
          const res = await call(route, tokens.get(held)!);
          seen[held] = outcome(res);
          want[held] = expected(route, held);
          const off = conformance(document, route.route.method, route.route.path, { ...res, bodyLength: res.body === undefined ? 0 : 1 });
          if (off.length) undocumented[held] = off;
        }),
      );
      expect(seen).toEqual(want);
      expect(undocumented).toEqual({});
    });
  }
});
