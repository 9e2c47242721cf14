import type { Client } from './api';
import type { LoadedRoute } from './routes';
import { addMember, agentId, MEMBERS, quarterHourIn } from './members';
import { readyFile } from './files';

/**
 * One way per resource collection to create a resource through the HTTP API and to read it back as its
 * owner sees it. Keyed by the route path up to its last id parameter, so every route under
 * `/api/v1/tags/{id}` shares the tag factory and `…/{id}/deliveries/{deliveryId}` has its own.
 * A route with an id parameter and no factory here fails the tenant matrix: add one with the new area.
 */
export interface ResourceFactory {
  /** Creates the resource (and its parents) in the caller's workspace; returns the path parameters naming it. */
  create(api: Client): Promise<Record<string, string>>;
  /** The resource, and what hangs off it, as its owner reads it through the API. */
  read(api: Client, ids: Record<string, string>): Promise<unknown>;
}

export interface FactoryOptions {
  /** Where test subscriptions point; a receiver that answers 2xx makes deliveries settle. */
  webhookUrl: string;
  /** Wait until a created delivery is `success`, so reading it back is stable. */
  settleDeliveries?: boolean;
}

/** `/api/v1/tags/{id}/…` → `/api/v1/tags/{id}`: the path up to and including its last `{param}` segment. */
export const collectionKey = (path: string): string | undefined => {
  const segments = path.split('/');
  const last = segments.findLastIndex((s) => /^\{\w+\}$/.test(s));
  return last < 0 ? undefined : segments.slice(0, last + 1).join('/');
};

let serial = 0;
const unique = () => `${process.pid}-${Date.now().toString(36)}-${++serial}`;

const created = async (res: Promise<{ status: number; body: any }>, what: string, key: string): Promise<string> => {
  const r = await res;
  if (r.status !== 201 && r.status !== 202) throw new Error(`creating ${what} failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.data[key]._id ?? r.body.data[key].deliveryId;
};

/** What a GET answers, status included, so "gone" and "changed" both show up in a comparison. */
const snapshot = async (api: Client, path: string) => {
  const res = await api.get(path);
  return { status: res.status, body: res.body };
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const TAGS = '/api/v1/tags';
const CONVERSATIONS = '/api/v1/inbox/conversations';
const CUSTOMERS = '/api/v1/contacts/customers';
const HOOKS = '/api/v1/integrations/webhooks';
const WORKFLOWS = '/api/v1/workflows';
const PIPELINES = '/api/v1/crm/pipelines';
const LEADS = '/api/v1/crm/leads';
const TASKS = '/api/v1/crm/tasks';
const ACTIVITIES = '/api/v1/crm/activities';
const ARTICLES = '/api/v1/ai/knowledge-base/articles';
const CHANNELS = '/api/v1/channels';
const BROADCASTS = '/api/v1/broadcasts';
const BOOKINGS = '/api/v1/scheduling/bookings';
const TOKENS = '/api/v1/auth/tokens';
const FILES = '/api/v1/files';
const EVENTS = '/api/v1/events';

export const makeFactories = (opts: FactoryOptions): Record<string, ResourceFactory> => {
  const tag: ResourceFactory = {
    create: async (api) => ({
      id: await created(api.post(TAGS, { name: `tag ${unique()}`, color: '#336699', description: 'made by a gate' }), 'tag', 'tag'),
    }),
    read: (api, { id }) => snapshot(api, `${TAGS}/${id}`),
  };
  const file: ResourceFactory = {
    create: async (api) => ({
      id: (await readyFile(api, `file ${unique()}.txt`, new TextEncoder().encode('made by a gate'), 'text/plain'))._id,
    }),
    // A download URL is signed afresh on every read: whether there is one is what stays the same.
    read: async (api, { id }) => {
      const { status, body } = await snapshot(api, `${FILES}/${id}`);
      const file = body?.data?.file;
      return { status, body: file ? { ...file, download: file.download !== null } : body };
    },
  };
  /** An export, waited for until written, so what its owner reads back stays the same (bar the freshly signed URL). */
  const exportOf = (path: string): ResourceFactory => ({
    create: async (api) => {
      const id = await created(api.post(path, {}), 'export', 'export');
      for (let i = 0; i < 200 && (await api.get(`${path}/${id}`)).body?.data?.export?.status !== 'completed'; i++) await sleep(50);
      return { id };
    },
    read: async (api, { id }) => {
      const { status, body } = await snapshot(api, `${path}/${id}`);
      const job = body?.data?.export;
      return { status, body: job ? { ...job, download: job.download !== null } : body };
    },
  });
  /** A customer's erasure, waited for until completed, so what its owner reads back stays the same. */
  const erasure: ResourceFactory = {
    create: async (api) => {
      const { id: customerId } = await customer.create(api);
      const id = await created(api.post(`/api/v1/contacts/customers/${customerId}/erase`), 'erasure', 'erasure');
      for (let i = 0; i < 200 && (await api.get(`/api/v1/contacts/erasures/${id}`)).body?.data?.erasure?.status !== 'completed'; i++) {
        await sleep(50);
      }
      return { id };
    },
    read: (api, { id }) => snapshot(api, `/api/v1/contacts/erasures/${id}`),
  };
  /** An import awaiting its CSV (what its owner reads back stays the same: no upload, no worker). */
  const importOf = (path: string, body: (api: Client) => Promise<unknown>): ResourceFactory => ({
    create: async (api) => ({ id: await created(api.post(path, await body(api)), 'import', 'import') }),
    read: async (api, { id }) => snapshot(api, `${path}/${id}`),
  });
  const channel: ResourceFactory = {
    create: async (api) => ({
      id: await created(api.post(CHANNELS, { type: 'sandbox', name: `sandbox ${unique()}` }), 'channel', 'channel'),
    }),
    read: async (api, { id }) => ({
      channel: await snapshot(api, `${CHANNELS}/${id}`),
      status: await snapshot(api, `${CHANNELS}/${id}/status`),
    }),
  };
  const broadcast: ResourceFactory = {
    create: async (api) => {
      const { id: channelId } = await channel.create(api);
      const { id: customerId } = await customer.create(api);
      return {
        id: await created(
          api.post(BROADCASTS, { name: `broadcast ${unique()}`, channelId, audience: { customerIds: [customerId] }, content: 'Hello' }),
          'broadcast',
          'broadcast',
        ),
      };
    },
    read: async (api, { id }) => ({
      broadcast: await snapshot(api, `${BROADCASTS}/${id}`),
      recipients: await snapshot(api, `${BROADCASTS}/${id}/recipients`),
    }),
  };
  const customer: ResourceFactory = {
    create: async (api) => ({
      id: await created(
        api.post(CUSTOMERS, { name: 'Grace Hopper', email: `grace-${unique()}@example.com`, attributes: { plan: 'pro', seats: 3 } }),
        'customer',
        'customer',
      ),
    }),
    read: async (api, { id }) => ({
      customer: await snapshot(api, `${CUSTOMERS}/${id}`),
      tags: await snapshot(api, `${CUSTOMERS}/${id}/tags`),
    }),
  };
  const conversation: ResourceFactory = {
    create: async (api) => {
      const { id: customerId } = await customer.create(api);
      const id = await created(
        api.post(CONVERSATIONS, { customerId, subject: 'Where is my order?', priority: 'high' }),
        'conversation',
        'conversation',
      );
      await created(api.post(`${CONVERSATIONS}/${id}/messages`, { type: 'note', content: 'first note' }), 'message', 'message');
      return { id };
    },
    read: async (api, { id }) => ({
      conversation: await snapshot(api, `${CONVERSATIONS}/${id}`),
      messages: await snapshot(api, `${CONVERSATIONS}/${id}/messages`),
      tags: await snapshot(api, `${CONVERSATIONS}/${id}/tags`),
    }),
  };
  const entityTag = (entity: ResourceFactory, base: string): ResourceFactory => ({
    create: async (api) => {
      const { id } = await entity.create(api);
      const { id: tagId } = await tag.create(api);
      const res = await api.post(`${base}/${id}/tags`, { tagIds: [tagId] });
      if (res.status !== 200) throw new Error(`tagging ${base}/${id} failed: ${res.status} ${JSON.stringify(res.body)}`);
      return { id: id!, tagId: tagId! };
    },
    read: async (api, ids) => ({ entity: await entity.read(api, { id: ids.id! }), tag: await tag.read(api, { id: ids.tagId! }) }),
  });
  const pipeline: ResourceFactory = {
    create: async (api) => ({ id: await created(api.post(PIPELINES, { name: `pipeline ${unique()}` }), 'pipeline', 'pipeline') }),
    read: async (api, { id }) => ({
      pipeline: await snapshot(api, `${PIPELINES}/${id}`),
      summary: await snapshot(api, `${PIPELINES}/${id}/summary`),
    }),
  };
  const stage: ResourceFactory = {
    create: async (api) => {
      const { id } = await pipeline.create(api);
      const res = await api.post(`${PIPELINES}/${id}/stages`, { name: 'Negotiation', probability: 0.8 });
      if (res.status !== 201) throw new Error(`adding a stage failed: ${res.status} ${JSON.stringify(res.body)}`);
      return { id: id!, stageId: res.body.data.pipeline.stages.find((s: { name: string }) => s.name === 'Negotiation')._id };
    },
    read: (api, { id }) => pipeline.read(api, { id: id! }),
  };
  const lead: ResourceFactory = {
    create: async (api) => {
      const { id: pipelineId } = await pipeline.create(api);
      const { id: customerId } = await customer.create(api);
      const body = { title: 'Annual plan', pipelineId, customerId, value: { amount: 120000, currency: 'EUR' } };
      return { id: await created(api.post(LEADS, body), 'lead', 'lead') };
    },
    read: async (api, { id }) => ({
      lead: await snapshot(api, `${LEADS}/${id}`),
      history: await snapshot(api, `${LEADS}/${id}/stage-history`),
      activities: await snapshot(api, `${LEADS}/${id}/activities`),
      tags: await snapshot(api, `${LEADS}/${id}/tags`),
    }),
  };
  const task: ResourceFactory = {
    create: async (api) => {
      const { id: leadId } = await lead.create(api);
      const body = { title: 'Call back', leadId, dueAt: new Date(Date.now() + 86_400_000).toISOString(), priority: 'high' };
      return { id: await created(api.post(TASKS, body), 'task', 'task') };
    },
    read: (api, { id }) => snapshot(api, `${TASKS}/${id}`),
  };
  const activity: ResourceFactory = {
    create: async (api) => {
      const { id: leadId } = await lead.create(api);
      return {
        id: await created(
          api.post(ACTIVITIES, { type: 'call', leadId, subject: 'Discovery call', durationSeconds: 900 }),
          'activity',
          'activity',
        ),
      };
    },
    read: (api, { id }) => snapshot(api, `${ACTIVITIES}/${id}`),
  };
  const subscription: ResourceFactory = {
    create: async (api) => ({
      id: await created(api.post(HOOKS, { url: `${opts.webhookUrl}?s=${unique()}`, events: ['inbox.*'] }), 'subscription', 'subscription'),
    }),
    read: async (api, { id }) => ({
      subscription: await snapshot(api, `${HOOKS}/${id}`),
      deliveries: await snapshot(api, `${HOOKS}/${id}/deliveries`),
    }),
  };
  const delivery: ResourceFactory = {
    create: async (api) => {
      const { id } = await subscription.create(api);
      const deliveryId = await created(api.post(`${HOOKS}/${id}/test`), 'test delivery', 'delivery');
      for (let i = 0; opts.settleDeliveries && i < 100; i++) {
        const d = await api.get(`${HOOKS}/${id}/deliveries/${deliveryId}`);
        if (d.body?.data?.delivery?.status === 'success') break;
        if (i === 99) throw new Error(`delivery ${deliveryId} did not succeed: ${JSON.stringify(d.body)}`);
        await sleep(200);
      }
      return { id: id!, deliveryId };
    },
    read: async (api, { id, deliveryId }) => ({
      delivery: await snapshot(api, `${HOOKS}/${id}/deliveries/${deliveryId}`),
      subscription: await snapshot(api, `${HOOKS}/${id}`),
    }),
  };
  const workflow: ResourceFactory = {
    create: async (api) => ({
      id: await created(
        api.post(WORKFLOWS, {
          name: `workflow ${unique()}`,
          trigger: { type: 'manual' },
          nodes: [{ id: 'remember', type: 'set_variable', config: { name: 'seen', value: '{{trigger.n}}' } }],
          edges: [],
        }),
        'workflow',
        'workflow',
      ),
    }),
    read: async (api, { id }) => ({
      workflow: await snapshot(api, `${WORKFLOWS}/${id}`),
      versions: await snapshot(api, `${WORKFLOWS}/${id}/versions`),
    }),
  };
  const execution: ResourceFactory = {
    create: async (api) => {
      const { id: workflowId } = await workflow.create(api);
      const id = await created(api.post(`${WORKFLOWS}/${workflowId}/trigger`, { payload: { n: 1 } }), 'execution', 'execution');
      for (let i = 0; i < 100; i++) {
        const e = await api.get(`${WORKFLOWS}/executions/${id}`);
        if (e.body?.data?.execution?.status === 'completed') break;
        if (i === 99) throw new Error(`execution ${id} did not complete: ${JSON.stringify(e.body)}`);
        await sleep(200);
      }
      return { id };
    },
    read: (api, { id }) => snapshot(api, `${WORKFLOWS}/executions/${id}`),
  };
  const article: ResourceFactory = {
    create: async (api) => ({
      id: await created(
        api.post(ARTICLES, { title: `Article ${unique()}`, body: 'Made by a gate.', tags: ['gate'] }),
        'article',
        'article',
      ),
    }),
    read: (api, { id }) => snapshot(api, `${ARTICLES}/${id}`),
  };
  const member: ResourceFactory = {
    create: async (api) => ({ id: (await addMember(api, { role: 'manager' }))._id }),
    read: (api, { id }) => snapshot(api, `${MEMBERS}/${id}`),
  };
  const booking: ResourceFactory = {
    create: async (api) => {
      const [{ id: customerId }, assigneeId] = await Promise.all([customer.create(api), agentId(api)]);
      const startAt = quarterHourIn(48);
      const endAt = new Date(Date.parse(startAt) + 30 * 60_000).toISOString();
      return {
        id: await created(api.post(BOOKINGS, { title: 'Demo call', customerId, assigneeId, startAt, endAt }), 'booking', 'booking'),
      };
    },
    read: (api, { id }) => snapshot(api, `${BOOKINGS}/${id}`),
  };
  const apiToken: ResourceFactory = {
    create: async (api) => ({
      id: await created(api.post(TOKENS, { name: `token ${unique()}`, scopes: ['tags:read'] }), 'token', 'token'),
    }),
    read: async (api, { id }) => {
      const { status, body } = await api.get(TOKENS);
      return { status, body: body.data?.tokens?.find((t: { _id: string }) => t._id === id) ?? null };
    },
  };
  const event: ResourceFactory = {
    create: async (api) => {
      const { id: customerId } = await customer.create(api);
      const { body } = await api.get(`${EVENTS}?types=customer.contact.created&limit=100`);
      const found = (body.data?.events ?? []).find((e: { data: { contact: { _id: string } } }) => e.data.contact._id === customerId);
      if (!found) throw new Error(`no customer.contact.created event for ${customerId} in the events log`);
      return { id: found.eventId };
    },
    read: (api, { id }) => snapshot(api, `${EVENTS}/${id}`),
  };
  return {
    [`${EVENTS}/{id}`]: event,
    [`${MEMBERS}/{id}`]: member,
    [`${BOOKINGS}/{id}`]: booking,
    [`${TOKENS}/{id}`]: apiToken,
    [`${WORKFLOWS}/{id}`]: workflow,
    [`${ARTICLES}/{id}`]: article,
    [`${WORKFLOWS}/executions/{id}`]: execution,
    [`${TAGS}/{id}`]: tag,
    [`${CUSTOMERS}/{id}`]: customer,
    [`${CONVERSATIONS}/{id}`]: conversation,
    [`${CONVERSATIONS}/{id}/tags/{tagId}`]: entityTag(conversation, CONVERSATIONS),
    [`${CUSTOMERS}/{id}/tags/{tagId}`]: entityTag(customer, CUSTOMERS),
    [`${LEADS}/{id}/tags/{tagId}`]: entityTag(lead, LEADS),
    [`${PIPELINES}/{id}`]: pipeline,
    [`${PIPELINES}/{id}/stages/{stageId}`]: stage,
    [`${LEADS}/{id}`]: lead,
    [`${TASKS}/{id}`]: task,
    [`${ACTIVITIES}/{id}`]: activity,
    [`${HOOKS}/{id}`]: subscription,
    [`${HOOKS}/{id}/deliveries/{deliveryId}`]: delivery,
    [`${HOOKS}/{id}/retry/{deliveryId}`]: delivery,
    [`${CHANNELS}/{id}`]: channel,
    [`${FILES}/{id}`]: file,
    '/api/v1/contacts/customers/exports/{id}': exportOf('/api/v1/contacts/customers/exports'),
    '/api/v1/contacts/erasures/{id}': erasure,
    '/api/v1/crm/leads/exports/{id}': exportOf('/api/v1/crm/leads/exports'),
    '/api/v1/contacts/customers/imports/{id}': importOf('/api/v1/contacts/customers/imports', async () => ({ idProperty: 'email' })),
    '/api/v1/crm/leads/imports/{id}': importOf('/api/v1/crm/leads/imports', async (api) => ({
      pipelineId: (await pipeline.create(api)).id,
    })),
    [`${BROADCASTS}/{id}`]: broadcast,
  };
};

/** The factory covering a route's id parameters, or undefined (the route has none, or nobody wrote one). */
export const factoryFor = (factories: Record<string, ResourceFactory>, route: LoadedRoute): ResourceFactory | undefined => {
  const key = collectionKey(route.route.path);
  return key ? factories[key] : undefined;
};
