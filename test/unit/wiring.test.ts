import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { wiring } from '../../functions/wiring';
import { loadRouteHandlers } from '../../functions/wiring/route-handlers';
import { sizing } from '../../functions/wiring/sizing';
import type { FunctionSpec } from '../../functions/wiring/types';
import { isScope } from '../../shared/domain/auth/scopes';

const root = resolve(import.meta.dirname, '..', '..');
const routeTable = readFileSync(resolve(root, 'docs', 'reference', 'routes.md'), 'utf8');
const handlers = await loadRouteHandlers(wiring.routes);

describe('the wiring module', () => {
  it('declares each method and path once', () => {
    const keys = wiring.routes.map((r) => `${r.method} ${r.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("gives every API function a timeout inside its API's (HTTP 30 s, WebSocket 29 s), so its own timeout answers first", () => {
    const socket = Object.values(wiring.socket ?? {});
    const over = (functions: FunctionSpec[], limit: number) =>
      functions.filter((f) => sizing(f, 'http').timeoutSeconds >= limit).map((f) => f.handler);
    expect(over([...wiring.routes, wiring.fallback], 30)).toEqual([]);
    expect(over(socket, 29)).toEqual([]);
    expect(socket.length).toBeGreaterThan(0);
  });

  it('names a route() handler for every route, which declares its one scope (none only for the /auth/* introspection routes, the events log and realtime routes, which filter by every read scope the token holds, and the public routes the wiring states)', () => {
    for (const { route, scope } of handlers) {
      if (route.public) expect(scope, `${route.method} ${route.path} is public`).toBeNull();
      else if (scope === null)
        expect(route.path, `${route.method} ${route.path} declares no scope`).toMatch(/^\/api\/v1\/(?:auth\/|events(?:\/|$)|realtime\/)/);
      else expect(isScope(scope), `${route.method} ${route.path} declares ${scope}`).toBe(true);
    }
  });

  it.each(handlers.map((h) => [`${h.route.method} ${h.route.path}`, h] as const))(
    '%s is documented in the route table with its handler scope',
    (_, { route, scope }) => {
      const row = routeTable.split('\n').find((line) => line.includes(`\`${route.method} ${route.path}\``));
      expect(row, `docs/reference/routes.md has no row for ${route.method} ${route.path}`).toBeDefined();
      expect(row).toContain(route.public ? 'public (no token)' : scope ? `\`${scope}\`` : 'any valid token');
    },
  );
});
