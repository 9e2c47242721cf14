import { randomBytes } from 'node:crypto';
import { writeMeasured } from '../../infra/cost/measured';
import { wiring } from '../../infra/wiring';
import { busEvent } from '../../infra/local/event-router';
import { invoke, nameOf } from '../../infra/local/lambda';
import type { LocalStack } from '../../infra/local/stack';
import { client, type Client } from '../support/api';
import { startReceiver } from '../support/https-receiver';
import { factoryFor, makeFactories, type ResourceFactory } from '../support/resource-factories';
import { loadRoutes, type LoadedRoute } from '../support/routes';
import { createTenant } from '../support/tenants';
import { validBody } from '../support/valid-body';
import { meterFunctions } from './capacity';
import type { Section } from './measure';

/** How long the consumers get to finish what the calls set off (stream, bus, queues) before the meter stops. */
const SETTLE_MS = 8_000;

/** Customers a measured bulk tagging call names: a batch an operator would send, well under the API's 100. */
const BULK_ENTITIES = 10;
const CUSTOMER = '/api/v1/contacts/customers/{id}';

type BodyMaker = (api: Client, ownTag: string, factories: Record<string, ResourceFactory>, ids: Record<string, string>) => Promise<unknown>;

const bulkTagging: BodyMaker = async (api, ownTag, factories) => {
  const entityIds: string[] = [];
  for (let i = 0; i < BULK_ENTITIES; i++) entityIds.push((await factories[CUSTOMER]!.create(api)).id!);
  return { entityType: 'customer', entityIds, tagIds: [ownTag] };
};

/**
 * Bodies that must name the caller's own entities besides its tag (a generated body names only the tag, and
 * is refused): made through the API like every resource. A removal's entities carry the tag first.
 */
const OWNED_BODIES: Record<string, BodyMaker> = {
  'POST /api/v1/tags/bulk': bulkTagging,
  'POST /api/v1/tags/bulk/remove': async (api, ownTag, factories, ids) => {
    const body = await bulkTagging(api, ownTag, factories, ids);
    await api.post('/api/v1/tags/bulk', body);
    return body;
  },
  // To the pipeline's next stage, so the move closes one stay and opens another.
  'POST /api/v1/crm/leads/{id}/move': async (api, _ownTag, _factories, { id }) => {
    const { lead } = (await api.get(`/api/v1/crm/leads/${id}`)).body.data;
    const { stages } = (await api.get(`/api/v1/crm/pipelines/${lead.pipelineId}`)).body.data.pipeline;
    const next = stages[stages.findIndex((stage: { _id: string }) => stage._id === lead.stageId) + 1];
    return { stageId: next._id };
  },
};

/** A collection's create (`POST /x` beside `/x/{id}`) is measured as its factory makes one: a realistic body naming the caller's own parents. */
const creatorOf = (factories: Record<string, ResourceFactory>, route: LoadedRoute): ResourceFactory | undefined =>
  route.route.method === 'POST' && route.pathParams.length === 0 ? factories[`${route.route.path}/{id}`] : undefined;

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

/**
 * `npm run bench -- cost`: the write cost of every POST, PATCH and DELETE route and of every queue, event
 * and schedule consumer. Each route is called once on its caller's own resources (made through the API by
 * the gates' factories, whose calls count too; a create is one of them), then every schedule runs once; the meter attributes each
 * write to the function that made it and divides by that function's invocations.
 */
export const run = async (stack: LocalStack): Promise<Section[]> => {
  const receiver = await startReceiver();
  const factories = makeFactories({ webhookUrl: receiver.url, settleDeliveries: true });
  const routes = (await loadRoutes()).filter((r) => ['POST', 'PATCH', 'DELETE'].includes(r.route.method));
  const statuses = new Map<string, number>();
  try {
    const writes = await meterFunctions(async () => {
      for (const route of routes) {
        const api = client(stack.baseUrl, await createTenant());
        const creator = creatorOf(factories, route);
        if (creator) {
          statuses.set(route.key, await createdStatus(api, route, creator));
          continue;
        }
        const ids = route.pathParams.length ? await factoryFor(factories, route)!.create(api) : {};
        const ownTag = (await api.post('/api/v1/tags', { name: `own ${randomBytes(4).toString('hex')}` })).body.data.tag._id as string;
        const path = route.pathParams.reduce((p, name) => p.replace(`{${name}}`, ids[name]!), route.route.path);
        const owned = OWNED_BODIES[route.key];
        const body = owned ? await owned(api, ownTag, factories, ids) : route.spec.body && validBody(route, [ownTag]);
        const res = await api.call(route.route.method, path, body);
        statuses.set(route.key, res.status);
      }
      await new Promise((r) => setTimeout(r, SETTLE_MS));
      for (const s of wiring.schedules)
        await invoke(s.target, { kind: 'schedule' }, busEvent('aws.scheduler', 'Scheduled Event', { schedule: s.name }));
    });
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
          'make to set up the other routes (realistic bodies); consumers are averaged over every invocation the run set off, each',
          'schedule once at the end. A consumer with 0 calls had nothing to do in this run.',
          'Written to infra/cost/measured-writes.json, which `npm run cost` prices workloads with.',
        ],
      },
    ];
  } finally {
    await receiver.stop();
  }
};
