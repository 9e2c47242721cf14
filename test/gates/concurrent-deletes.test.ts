import { describe, expect, it } from 'vitest';
import type { ApiResponse } from '../support/api';
import { collectionKey, factoryFor, makeFactories } from '../support/resource-factories';
import { loadRoutes } from '../support/routes';
import { useTestStack } from '../support/stack';
import { conformance } from '../support/conformance';
import { openApiDocument } from '../../infra/docs/document';

/**
 * Every DELETE route of the wiring, against a burst of concurrent deletes of one freshly created resource:
 * exactly one does it, and every other answers what a delete repeated after it answers, as if they had
 * come one after another: 404 for a resource that is gone, 409 for one that stays readable as revoked or
 * removed. A delete that reads,
 * then deletes unconditionally, lets several "succeed" (and emit several events).
 */
const BURST = 5;

const routes = (await loadRoutes()).filter((r) => r.route.method === 'DELETE');
const document = await openApiDocument();
const env = useTestStack({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
const factories = makeFactories({ webhookUrl: 'https://127.0.0.1:9/hook' });

describe('concurrent deletes of one resource', () => {
  it('covers every DELETE route of the wiring', () => {
    expect(routes.length).toBeGreaterThan(0);
    expect(
      routes.filter((r) => !factoryFor(factories, r)).map((r) => `${r.key} (needs a factory for ${collectionKey(r.route.path)})`),
    ).toEqual([]);
  });

  for (const route of routes) {
    it(`${route.key}: exactly one of ${BURST} concurrent deletes does it, the rest answer as a repeat after it`, async () => {
      const t = await env.tenant();
      const ids = await factoryFor(factories, route)!.create(t.api);
      const path = route.pathParams.reduce((p, name) => p.replace(`{${name}}`, ids[name]!), route.route.path);
      const answers = await Promise.all(Array.from({ length: BURST }, () => t.api.delete(path)));
      const repeat = await t.api.delete(path);
      const ok = route.spec.status ?? 200;
      const did = (a: ApiResponse) => a.status === ok && a.body.data.deleted === true;
      const outcome = (a: ApiResponse) => `${a.status} ${a.body.error?.code ?? `deleted: ${String(a.body.data?.deleted)}`}`;
      const shown = JSON.stringify(answers.map(outcome));
      expect(answers.filter(did), shown).toHaveLength(1);
      expect(did(repeat), outcome(repeat)).toBe(false);
      expect([404, 409, ok], outcome(repeat)).toContain(repeat.status);
      expect(answers.filter((a) => !did(a)).map(outcome), shown).toEqual(Array.from({ length: BURST - 1 }, () => outcome(repeat)));
      // Each of these answers is one the document lists for the route.
      for (const a of [...answers, repeat])
        expect(conformance(document, 'DELETE', route.route.path, { ...a, bodyLength: 1 }), outcome(a)).toEqual([]);
    });
  }
});
