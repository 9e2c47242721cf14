import { randomBytes } from 'node:crypto';
import { writeMeasured } from '../../infra/cost/measured';
import { wiring } from '../../functions/wiring';
import { busEvent } from '../../infra/local/event-router';
import { invoke, nameOf } from '../../infra/local/lambda';
import type { LocalStack } from '../../infra/local/stack';
import { client, type ApiResponse, type Client } from '../support/api';
import { startReceiver } from '../support/https-receiver';
import { factoryFor, makeFactories, type ResourceFactory } from '../support/resource-factories';
import { loadRoutes, type LoadedRoute } from '../support/routes';
import { createTenant } from '../support/tenants';
import { validBody } from '../support/valid-body';
import { meterFunctions } from './capacity';
import { BODIES, failFirstAttempts, MEASURED_APART, type BodyMaker } from './cost-bodies';
import type { Section } from './measure';

/** How long the consumers get to finish what the calls set off (stream, bus, queues) before the meter stops. */
const SETTLE_MS = 8_000;

/** The default measured call: on the route's own resource, with a body its schema accepts naming the caller's own tag. */
const generated =
  (route: LoadedRoute): BodyMaker =>
  async ({ resource, ownTag }) => ({ ids: await resource(), body: route.spec.body && validBody(route, [ownTag]) });

/**
 * A collection's create (`POST /x` beside `/x/{id}`) is measured as its factory makes one: a realistic body naming the
 * caller's own parents. A body maker of its own wins (an import's maker also uploads the CSV the import then runs).
 */
const creatorOf = (factories: Record<string, ResourceFactory>, route: LoadedRoute): ResourceFactory | undefined =>
  route.route.method === 'POST' && route.pathParams.length === 0 && !BODIES[route.key] ? factories[`${route.route.path}/{id}`] : undefined;

/** Runs a factory's create, returning the status its own call to `route` got (its parents' calls go to their routes). */
const createdStatus = async (api: Client, route: LoadedRoute, factory: ResourceFactory): Promise<number> => {
  let status = 0;
  const post: Client['post'] = async (path, body, headers) => {
    const res = await api.post(path, body, headers);
    if (path === route.route.path) status = res.status;
    return res;
  };
  await factory.create({ ...api, post });
  return status;
};

/** A body maker whose key names no route measured with a body (renamed, moved, or a create its factory makes) would go unused. */
const checkBodiesNameRoutes = (routes: LoadedRoute[], factories: Record<string, ResourceFactory>): void => {
  const unused = Object.keys(BODIES).filter((key) => !routes.some((r) => r.key === key && !creatorOf(factories, r)));
  if (unused.length) throw new Error(`cost-bodies.ts has body makers for no measured route: ${unused.join(', ')}`);
};

/**
 * `npm run bench -- cost`: the write cost of every POST, PATCH and DELETE route and of every queue, event
 * and schedule consumer. Each route is called once on its caller's own resources (made through the API by
 * the gates' factories, whose calls count too; a create is one of them), with a generated body or, where
 * that would be refused, a body maker's (`cost-bodies.ts`); then every schedule runs once. The meter
 * attributes each write to the function that made it and divides by that function's invocations. The
 * routes that retry what their setup failed on purpose are measured apart, after the rest (`MEASURED_APART`).
 * `COST_ROUTES=/inbox/messages,/crm/leads` measures only the routes whose key contains one of those, and leaves
 * `measured-writes.json` as it is. `COST_ITEMS=1` prints every write to stderr: each item of a transaction with its
 * table and index units, and each single write with its key and units.
 */
export const run = async (stack: LocalStack): Promise<Section[]> => {
  const receiver = await startReceiver();
  const failing = await startReceiver(failFirstAttempts);
  const factories = makeFactories({ webhookUrl: receiver.url, settleDeliveries: true });
  const only = process.env.COST_ROUTES?.split(',');
  const routes = (await loadRoutes())
    .filter((r) => ['POST', 'PATCH', 'DELETE'].includes(r.route.method))
    .filter((r) => !only || only.some((o) => r.key.includes(o)));
  const statuses = new Map<string, number>();
  try {
    if (!only) checkBodiesNameRoutes(routes, factories);
    /** A route's measured call, on a new caller's own resources, once its maker's setup is done. */
    const prepare = async (route: LoadedRoute): Promise<() => Promise<ApiResponse>> => {
      const caller = await createTenant();
      const api = client(stack.baseUrl, caller);
      const ownTag = (await api.post('/api/v1/tags', { name: `own ${randomBytes(4).toString('hex')}` })).body.data.tag._id as string;
      const resource = async () => (route.pathParams.length ? factoryFor(factories, route)!.create(api) : {});
      const setup = { api, tenant: caller.tenant, ownTag, factories, resource, failingUrl: failing.url };
      const { ids = {}, body, send } = await (BODIES[route.key] ?? generated(route))(setup);
      const path = route.pathParams.reduce((p, name) => p.replace(`{${name}}`, ids[name]!), route.route.path);
      return send ?? (() => api.call(route.route.method, path, body));
    };
    const apart = routes.filter((r) => MEASURED_APART.has(r.key));
    const prepared = new Map<string, () => Promise<ApiResponse>>();
    for (const route of apart) prepared.set(route.key, await prepare(route));
    const writes = await meterFunctions(async () => {
      for (const route of routes) {
        if (MEASURED_APART.has(route.key)) continue;
        const creator = creatorOf(factories, route);
        const status = creator
          ? await createdStatus(client(stack.baseUrl, await createTenant()), route, creator)
          : (await (await prepare(route))()).status;
        statuses.set(route.key, status);
      }
      await new Promise((r) => setTimeout(r, SETTLE_MS));
      for (const s of wiring.schedules)
        await invoke(s.target, { kind: 'schedule' }, busEvent('aws.scheduler', 'Scheduled Event', { schedule: s.name }));
    });
    const apartWrites = await meterFunctions(async () => {
      for (const route of apart) statuses.set(route.key, (await prepared.get(route.key)!()).status);
    });
    for (const route of apart) writes.set(nameOf(route.route), apartWrites.get(nameOf(route.route)) ?? { calls: 0, items: 0, units: 0 });
    const consumers: [string, string][] = [
      ...wiring.queues.map((q) => [`queue ${q.name}`, nameOf(q.consumer)] as [string, string]),
      ...wiring.rules.map((r) => [`event ${r.name}`, nameOf(r.target)] as [string, string]),
      ...wiring.schedules.map((s) => [`schedule ${s.name}`, nameOf(s.target)] as [string, string]),
    ];
    const rows = [...routes.map((r) => [`${r.key} (${statuses.get(r.key)})`, nameOf(r.route)] as [string, string]), ...consumers].map(
      ([label, fn]) => {
        const w = writes.get(fn) ?? { calls: 0, items: 0, units: 0 };
        const per = (n: number) => (w.calls ? n / w.calls : 0);
        return [label, w.calls, per(w.items), per(w.units)] as [string, number, number, number];
      },
    );
    rows.sort((a, b) => b[3] - a[3] || a[0].localeCompare(b[0]));
    if (!only)
      writeMeasured(
        rows.map(([label, calls, itemsPerCall, unitsPerCall]) => ({
          what: label.replace(/ \(\d+\)$/, ''),
          calls,
          itemsPerCall,
          unitsPerCall,
        })),
      );
    return [
      {
        title: 'Write cost per call: every POST, PATCH and DELETE route and every consumer, heaviest first',
        columns: ['route (status of the measured call) or consumer', 'calls', 'items written / call', 'WCU / call'],
        rows,
        notes: [
          'Units are those DynamoDB Local reports per write (ReturnConsumedCapacity INDEXES: the table in 1 KB steps plus every index',
          "entry), with a transaction's table units doubled as DynamoDB bills them. A route's calls include those the resource factories",
          'and body makers make to set up the other routes (realistic bodies); consumers are averaged over every invocation the run',
          'set off, each schedule once at the end. A consumer with 0 calls had nothing to do in this run.',
          'Written to infra/cost/measured-writes.json, which `npm run cost` prices workloads with.',
        ],
      },
    ];
  } finally {
    await receiver.stop();
    await failing.stop();
  }
};
