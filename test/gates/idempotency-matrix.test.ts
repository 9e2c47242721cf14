import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wiring } from '../../functions/wiring';
import { expectError } from '../support/api';
import { startReceiver, type Receiver } from '../support/https-receiver';
import { factoryFor, makeFactories, type ResourceFactory } from '../support/resource-factories';
import { loadRoutes } from '../support/routes';
import { useTestStack } from '../support/stack';
import { validBody } from '../support/valid-body';

/**
 * Idempotency gate (docs/guide/idempotency.md): every POST and PATCH route of the wiring, called on the
 * caller's own resources (made by the tenant matrix's factories) with a body its schema accepts, is
 * called again with the same `Idempotency-Key`: the repeat gets the kept response (same status and body,
 * marked replayed); the key with another body is refused with 409 naming it. A kept 4xx (a state the
 * route refuses) proves the key is honoured as well as a kept success does; most first answers are 2xx.
 */
const routes = (await loadRoutes()).filter((r) => r.route.method === 'POST' || r.route.method === 'PATCH');
const env = useTestStack({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
let receiver: Receiver;
let factories: Record<string, ResourceFactory> = {};
const firstStatuses: number[] = [];

beforeAll(async () => {
  receiver = await startReceiver();
  factories = makeFactories({ webhookUrl: receiver.url });
});
afterAll(() => receiver?.stop());

describe('the idempotency gate', () => {
  it('covers every POST and PATCH route of the wiring', () => {
    const keyed = wiring.routes.filter((r) => r.method === 'POST' || r.method === 'PATCH').map((r) => `${r.method} ${r.path}`);
    expect(routes.map((r) => r.key).sort()).toEqual(keyed.sort());
  });

  // A tenant per case: five run at once (vitest's maxConcurrency) on the one stack, before the tally below.
  describe.concurrent('each route', () => {
    for (const route of routes) {
      it(`${route.key} replays a repeat with the same key and refuses the key for another body`, async () => {
        // A tenant per route: each has its own rate-limit budget.
        const { api } = await env.tenant();
        const ids = route.pathParams.length ? await factoryFor(factories, route)!.create(api) : {};
        const ownTag = (await api.post('/api/v1/tags', { name: `own ${randomBytes(4).toString('hex')}` })).body.data.tag._id as string;
        const path = route.pathParams.reduce((p, name) => p.replace(`{${name}}`, ids[name]!), route.route.path);
        const body = route.spec.body ? validBody(route, [ownTag]) : undefined;
        const key = `gate-${randomBytes(8).toString('hex')}`;
        const send = (b: unknown) => api.call(route.route.method, path, b, { 'Idempotency-Key': key });

        const first = await send(body);
        expect(first.headers.get('idempotent-replayed')).toBeNull();
        expect(first.status).toBeLessThan(500);
        firstStatuses.push(first.status);
        const repeat = await send(body);
        expect({ status: repeat.status, body: repeat.body, replayed: repeat.headers.get('idempotent-replayed') }).toEqual({
          status: first.status,
          body: first.body,
          replayed: 'true',
        });
        const other = await send({ ...(body as object | undefined), otherField: true });
        expectError(other, 409, 'CONFLICT');
        expect(other.body.error.details).toEqual({ idempotencyKey: key });
      });
    }
  });

  it('ran most routes to a success, so the gate holds on real changes and not only on refusals', () => {
    expect(firstStatuses).toHaveLength(routes.length);
    expect(firstStatuses.filter((s) => s < 300).length).toBeGreaterThan(routes.length / 2);
  });
});
