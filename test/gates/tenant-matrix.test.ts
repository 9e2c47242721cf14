import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../support/api';
import { startReceiver, type Receiver } from '../support/https-receiver';
import { collectionKey, factoryFor, makeFactories, type ResourceFactory } from '../support/resource-factories';
import { loadRoutes } from '../support/routes';
import { useTestStack } from '../support/stack';
import { validBody } from '../support/valid-body';
import { conformance } from '../support/conformance';
import { openApiDocument } from '../../infra/docs/document';

/**
 * Tenant matrix (docs/contributing/testing.md): on every route with an id path parameter, an id that belongs to another
 * tenant (another workspace, or the same workspace in the other mode) is 404 NOT_FOUND, and the resource
 * it names is exactly as it was, read back by its owner.
 * Resources are made through the API by the factory registered for the route's collection.
 */
const routes = (await loadRoutes()).filter((r) => r.pathParams.length > 0);
const document = await openApiDocument();
// Loopback receivers allowed, so test deliveries reach the receiver below and settle as `success`.
const env = useTestStack({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
let receiver: Receiver;
let factories: Record<string, ResourceFactory> = {};

beforeAll(async () => {
  receiver = await startReceiver();
  factories = makeFactories({ webhookUrl: receiver.url, settleDeliveries: true });
});
afterAll(() => receiver?.stop());

// The registry's keys, known without a receiver: a route they do not cover fails below, by name.
const covered = new Set(Object.keys(makeFactories({ webhookUrl: 'https://127.0.0.1/unused' })));

/** The `status` of every GET inside a snapshot. */
const statuses = (snapshot: unknown): number[] =>
  snapshot !== null && typeof snapshot === 'object'
    ? 'status' in snapshot && 'body' in snapshot
      ? [(snapshot as { status: number }).status]
      : Object.values(snapshot).flatMap(statuses)
    : [];

// Five cases run at once (vitest's maxConcurrency) on the one stack.
describe.concurrent('the tenant matrix', () => {
  it('has a resource factory for every route with an id path parameter', () => {
    const missing = routes
      .filter((r) => !covered.has(collectionKey(r.route.path)!))
      .map((r) => `${r.key} (needs a factory for ${collectionKey(r.route.path)})`);
    expect(missing, `add them to test/support/resource-factories.ts:\n${missing.join('\n')}`).toEqual([]);
    expect(routes.length).toBeGreaterThan(0);
  });

  /** Who owns the resources, and who calls with their ids from another tenant. */
  const pairs = {
    "another workspace's ids": async () => Promise.all([env.tenant(), env.tenant()]),
    "the same workspace's ids from the other mode (test resources, live token)": async () => {
      const owner = await env.tenant();
      return [owner, await env.liveMode(owner)] as const;
    },
    "the same workspace's ids from the other mode (live resources, test token)": async () => {
      const caller = await env.tenant();
      return [await env.liveMode(caller), caller] as const;
    },
  };

  /**
   * The tenants and resources of one collection and one kind of foreign id, made once and shared by the
   * collection's routes: every call the matrix makes must be refused, so none changes them, and each case
   * still reads both resources back before and after its own calls.
   */
  const fixtures = new Map<string, ReturnType<typeof makeFixture>>();
  const makeFixture = async (factory: ResourceFactory, pair: (typeof pairs)[keyof typeof pairs]) => {
    const [owner, caller] = await pair();
    const [theirs, mine] = await Promise.all([factory.create(owner.api), factory.create(caller.api)]);
    // The caller's own tag, for bodies that name tags: the only foreign thing in a request is its path.
    const ownTag = (await caller.api.post('/api/v1/tags', { name: `own ${Date.now()}` })).body.data.tag._id as string;
    return { owner, caller, theirs, mine, ownTag };
  };
  const fixtureFor = (route: (typeof routes)[number], factory: ResourceFactory, foreign: keyof typeof pairs) => {
    const key = `${collectionKey(route.route.path)} ${foreign}`;
    const found = fixtures.get(key) ?? makeFixture(factory, pairs[foreign]);
    fixtures.set(key, found);
    return found;
  };

  for (const route of routes)
    for (const foreign of Object.keys(pairs) as (keyof typeof pairs)[]) {
      const variants = route.pathParams.length > 1 ? ' (every id foreign, and each id foreign alone)' : '';
      it(`${route.key} answers 404 NOT_FOUND for ${foreign}${variants} and leaves the resource unchanged`, async () => {
        const factory = factoryFor(factories, route);
        if (!factory)
          throw new Error(
            `no resource factory covers ${route.key}: register one for ${collectionKey(route.route.path)} in test/support/resource-factories.ts`,
          );
        const { owner, caller, theirs, mine, ownTag } = await fixtureFor(route, factory, foreign);

        // All ids foreign; then, for nested routes, one foreign id beside the caller's own others.
        const idSets = [theirs, ...(route.pathParams.length > 1 ? route.pathParams.map((p) => ({ ...mine, [p]: theirs[p]! })) : [])];
        const before = { theirs: await factory.read(owner.api, theirs), mine: await factory.read(caller.api, mine) };
        // Every read in the snapshots succeeded: comparing two "404"s would prove nothing.
        expect(statuses(before), JSON.stringify(before)).toEqual(expect.arrayContaining([200]));
        expect(new Set(statuses(before))).toEqual(new Set([200]));
        for (const ids of idSets) {
          const path = route.pathParams.reduce((p, name) => p.replace(`{${name}}`, ids[name]!), route.route.path);
          const body = route.spec.body ? validBody(route, [ownTag]) : undefined;
          const res = await caller.api.call(route.route.method, path, body);
          expectError(res, 404, 'NOT_FOUND');
          expect(conformance(document, route.route.method, route.route.path, { ...res, bodyLength: 1 })).toEqual([]);
          if (caller.workspaceId !== owner.workspaceId) expect(JSON.stringify(res.body)).not.toContain(owner.workspaceId);
        }
        expect(await factory.read(owner.api, theirs)).toEqual(before.theirs);
        expect(await factory.read(caller.api, mine)).toEqual(before.mine);
      });
    }
});
