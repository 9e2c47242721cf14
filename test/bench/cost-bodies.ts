import type { Tenant } from '../../shared/domain/auth/tenant';
import { createBooking } from '../../shared/scheduling/bookings';
import type { ApiResponse, Client } from '../support/api';
import { CHANNELS, CONVERSATIONS, CUSTOMERS, createChannel, postInbound } from '../support/channels';
import { PIPELINES } from '../support/crm';
import type { Received, Reply } from '../support/https-receiver';
import { addMember, agentId, quarterHourIn } from '../support/members';
import { makeFactories, type ResourceFactory } from '../support/resource-factories';
import { eventually } from '../support/webhooks';
import { postForm, readyFile } from '../support/files';
import { call, createWorkflow, edge, finished, node, trigger } from '../support/workflows';
import { direct } from '../../shared/data/unit';

/**
 * The measured call of each route whose generated body would be refused: a realistic body naming the caller's
 * own resources, after the setup calls that create its precondition (through the API, or where the API cannot,
 * the repositories the integration tests use). Setup never calls the measured route itself.
 */

/** What a body maker works with: the caller, its own tag, the gates' factories and the route's own resource. */
interface Setup {
  api: Client;
  tenant: Tenant;
  ownTag: string;
  factories: Record<string, ResourceFactory>;
  /** Creates the resource the route's path names, with the route's factory; returns its path ids. */
  resource: () => Promise<Record<string, string>>;
  /** A receiver that answers as `failFirstAttempts` does. */
  failingUrl: string;
}

/** The path ids and body of the measured call or, for a request a support helper makes as a client would, that request. */
interface MeasuredCall {
  ids?: Record<string, string>;
  body?: unknown;
  send?: () => Promise<ApiResponse>;
}

export type BodyMaker = (setup: Setup) => Promise<MeasuredCall>;

/**
 * The failing receiver's answer: a 410 to the first attempt of a webhook delivery or of a workflow's HTTP step
 * (whose idempotency key ends in its attempt), the one answer that fails a delivery at once; 204 to a retry.
 */
export const failFirstAttempts = (req: Received): Reply => {
  const first = req.headers['x-webhook-attempt'] === '1' || String(req.headers['idempotency-key']).endsWith(':1');
  return { status: first ? 410 : 204 };
};

/** Customers a measured bulk tagging call names: a batch an operator would send, well under the API's 100. */
const BULK_ENTITIES = 10;
const CUSTOMER = `${CUSTOMERS}/{id}`;
const HOOKS = '/api/v1/integrations/webhooks';
const DELIVERY = `${HOOKS}/{id}/deliveries/{deliveryId}`;
const BOOKINGS = '/api/v1/scheduling/bookings';
const WORKFLOWS = '/api/v1/workflows';
const EXECUTIONS = `${WORKFLOWS}/executions`;

const minutesAfter = (iso: string, minutes: number) => new Date(Date.parse(iso) + minutes * 60_000).toISOString();

/** A setup call's answer, failing the run on anything but a 2xx: the measured call relies on it. */
const ok = async (res: Promise<ApiResponse>, what: string): Promise<ApiResponse> => {
  const r = await res;
  if (r.status < 200 || r.status > 299) throw new Error(`${what} failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r;
};

/** A call on the route's own resource, with the body `body` makes for it (and any precondition it sets up). */
const onResource =
  (body: (setup: Setup, ids: Record<string, string>) => unknown): BodyMaker =>
  async (setup) => {
    const ids = await setup.resource();
    return { ids, body: await body(setup, ids) };
  };

/** A call without a body on the route's own resource, once `prepare` has brought it into the state the route acts on. */
const after = (prepare: (api: Client, id: string) => Promise<unknown>): BodyMaker =>
  onResource(async ({ api }, { id }) => {
    await prepare(api, id!);
    return undefined;
  });

const ownTagging = onResource(({ ownTag }) => ({ tagIds: [ownTag] }));

/** The caller's own tag on a batch of its customers. */
const bulkTagging = async ({ api, ownTag, factories }: Setup) => {
  const entityIds: string[] = [];
  for (let i = 0; i < BULK_ENTITIES; i++) entityIds.push((await factories[CUSTOMER]!.create(api)).id!);
  return { entityType: 'customer', entityIds, tagIds: [ownTag] };
};

const stageIdsOf = async (api: Client, pipelineId: string): Promise<string[]> =>
  (await api.get(`${PIPELINES}/${pipelineId}`)).body.data.pipeline.stages.map((stage: { _id: string }) => stage._id);

/**
 * A confirmed booking that has started. The API books only future times: this one was booked yesterday, through
 * the repository as the integration tests do.
 */
const startedBooking: BodyMaker = async ({ api, tenant, factories }) => {
  const [{ id: customerId }, assigneeId] = await Promise.all([factories[CUSTOMER]!.create(api), agentId(api)]);
  const startAt = quarterHourIn(-1);
  const input = { title: 'Demo call', customerId: customerId!, assigneeId, startAt, endAt: minutesAfter(startAt, 30), timezone: 'UTC' };
  const booking = await createBooking(direct, tenant, input, new Date(Date.now() - 86_400_000));
  await ok(api.post(`${BOOKINGS}/${booking._id}/confirm`), 'confirming the booking');
  return { ids: { id: booking._id } };
};

/** A test event its subscriber refused with a 410, which also turned the subscription off; it is turned back on. */
const failedDelivery = async ({ api, failingUrl }: Setup): Promise<{ id: string; deliveryId: string }> => {
  const { id, deliveryId } = await makeFactories({ webhookUrl: failingUrl })[DELIVERY]!.create(api);
  await eventually(async () => (await api.get(`${HOOKS}/${id}/deliveries/${deliveryId}`)).body.data?.delivery?.status === 'failed');
  await ok(api.patch(`${HOOKS}/${id}`, { active: true }), 'turning the subscription back on');
  return { id: id!, deliveryId: deliveryId! };
};

/** An execution waiting out the hour before its follow-up step. */
const waitingExecution: BodyMaker = async ({ api }) => {
  const workflow = await createWorkflow(api, {
    nodes: [node('pause', 'wait', { seconds: 3600 }), node('followUp', 'set_variable', { name: 'followedUp', value: true })],
    edges: [edge('pause', 'followUp')],
  });
  const { _id: id } = await trigger(api, workflow._id);
  await eventually(async () => (await api.get(`${EXECUTIONS}/${id}`)).body.data?.execution?.status === 'waiting');
  return { ids: { id } };
};

/** An execution whose HTTP step the failing receiver refused (the retried step is answered). */
const failedExecution: BodyMaker = async ({ api, failingUrl }) => {
  const workflow = await createWorkflow(api, { nodes: [call('notify', failingUrl, { body: { event: 'order.shipped' } })], edges: [] });
  const execution = await finished(api, (await trigger(api, workflow._id))._id);
  if (execution.status !== 'failed') throw new Error(`the execution did not fail: ${JSON.stringify(execution)}`);
  return { ids: { id: execution._id } };
};

/**
 * An import as a client makes it: the measured call, then the upload of its CSV (10 rows), which sets off the
 * import rule and the bulk worker, whose writes the meter counts under their own rows.
 */
const importOf =
  (path: string, body: (setup: Setup) => Promise<unknown>, csv: string): BodyMaker =>
  async (setup) => {
    const input = await body(setup);
    return {
      send: async () => {
        const res = await ok(setup.api.post(path, input), 'starting the import');
        const sent = await postForm(res.body.data.upload, new TextEncoder().encode(csv), 'text/csv');
        if (sent.status !== 204) throw new Error(`the import's upload answered ${sent.status}: ${sent.body}`);
        return res;
      },
    };
  };

const TEN = Array.from({ length: 10 }, (_, i) => i);

/**
 * Routes measured in a pass of their own, after the others: their setup fails a webhook delivery or a workflow
 * step on purpose, and their call retries it. In the main pass those attempts would be averaged into the
 * consumers' rows, which `npm run cost` prices every delivery and step with; here only the route's own writes count.
 */
export const MEASURED_APART: ReadonlySet<string> = new Set([
  'POST /api/v1/integrations/webhooks/{id}/retry/{deliveryId}',
  'POST /api/v1/workflows/executions/{id}/retry',
  'POST /api/v1/integrations/webhooks/{id}/recover',
]);

/**
 * Keyed by route (`METHOD /path`): the bench fails on a key that names no route it measures, so a route that
 * changes its path is not silently measured with a generated body again.
 */
export const BODIES: Record<string, BodyMaker> = {
  'POST /api/v1/contacts/customers/imports': importOf(
    '/api/v1/contacts/customers/imports',
    async () => ({ idProperty: 'email' }),
    ['email,name', ...TEN.map((i) => `imported-${i}@example.com,Imported ${i}`)].join('\n'),
  ),
  'POST /api/v1/crm/leads/imports': importOf(
    '/api/v1/crm/leads/imports',
    async ({ api }) => ({
      pipelineId: (await ok(api.post(PIPELINES, { name: 'Imported' }), 'creating a pipeline')).body.data.pipeline._id,
    }),
    ['title', ...TEN.map((i) => `Imported deal ${i}`)].join('\n'),
  ),
  'POST /api/v1/tags/bulk': async (setup) => ({ body: await bulkTagging(setup) }),
  // The entities carry the tag first.
  'POST /api/v1/tags/bulk/remove': async (setup) => {
    const body = await bulkTagging(setup);
    await ok(setup.api.post('/api/v1/tags/bulk', body), 'bulk tagging');
    return { body };
  },
  'POST /api/v1/contacts/customers/{id}/tags': ownTagging,
  'POST /api/v1/inbox/conversations/{id}/tags': ownTagging,
  'POST /api/v1/crm/leads/{id}/tags': ownTagging,
  // To the pipeline's next stage, so the move closes one stay and opens another.
  'POST /api/v1/crm/leads/{id}/move': onResource(async ({ api }, { id }) => {
    const { lead } = (await api.get(`/api/v1/crm/leads/${id}`)).body.data;
    const stageIds = await stageIdsOf(api, lead.pipelineId);
    return { stageId: stageIds[stageIds.indexOf(lead.stageId) + 1] };
  }),
  'PATCH /api/v1/crm/leads/{id}': onResource(() => ({ title: 'Annual plan, 5 seats', value: { amount: 150000, currency: 'EUR' } })),
  'POST /api/v1/crm/pipelines/{id}/stages': onResource(() => ({ name: 'Negotiation', probability: 0.8 })),
  // The first two stages swap places.
  'POST /api/v1/crm/pipelines/{id}/stages/reorder': onResource(async ({ api }, { id }) => {
    const [first, second, ...rest] = await stageIdsOf(api, id!);
    return { stageIds: [second, first, ...rest] };
  }),
  'POST /api/v1/contacts/customers/{id}/unblock': after((api, id) => ok(api.post(`${CUSTOMERS}/${id}/block`), 'blocking the customer')),
  // A duplicate customer with a conversation of its own, which the merge moves to the base.
  'POST /api/v1/contacts/customers/merge': async ({ api, factories }) => {
    const { id: baseId } = await factories[CUSTOMER]!.create(api);
    const { id: mergeeId } = await factories[CUSTOMER]!.create(api);
    await ok(api.post(CONVERSATIONS, { customerId: mergeeId, subject: 'Where is my order?' }), 'a conversation of the duplicate');
    return { body: { baseId, mergeeId } };
  },
  'POST /api/v1/inbox/conversations/{id}/assign': onResource(async ({ api }) => ({ assigneeId: await agentId(api) })),
  // A conversation whose reply holds a file, so its deletion sets off the files' deletion too.
  'DELETE /api/v1/inbox/conversations/{id}': after(async (api, id) => {
    const file = await readyFile(api, 'invoice.txt', new TextEncoder().encode('Invoice 42: 3 seats'), 'text/plain');
    return ok(
      api.post(`${CONVERSATIONS}/${id}/messages`, { content: 'Your invoice', attachments: [{ fileId: file._id }] }),
      'a reply with a file',
    );
  }),
  'POST /api/v1/inbox/conversations/{id}/unassign': after(async (api, id) =>
    ok(api.post(`${CONVERSATIONS}/${id}/assign`, { assigneeId: await agentId(api) }), 'assigning the conversation'),
  ),
  'POST /api/v1/channels/{id}/connect': after((api, id) => ok(api.post(`${CHANNELS}/${id}/disconnect`), 'disconnecting the channel')),
  // A customer's message, signed with the account's secret as its provider signs it.
  'POST /api/v1/channels/{id}/inbound': async ({ api }) => {
    const channel = await createChannel(api, { type: 'sandbox' });
    const message = { type: 'message', customer: { identifier: 'ext-42', name: 'Ada Lovelace' }, content: 'Has my order shipped?' };
    return { ids: { id: channel._id }, send: () => postInbound(api, channel._id, channel.signingSecret, message) };
  },
  'POST /api/v1/broadcasts/{id}/schedule': onResource(() => ({ at: quarterHourIn(24) })),
  // A customer's question in a workspace that has turned AI on.
  'POST /api/v1/ai/suggest-reply': async ({ api }) => {
    await ok(api.patch('/api/v1/ai/settings', { enabled: true }), 'turning AI on');
    const customer = { identifier: 'ada@example.com', email: 'ada@example.com' };
    const incoming = { channel: 'email', customer, content: 'How do I reset my password?' };
    const { body } = await ok(api.post('/api/v1/inbox/messages/incoming', incoming), 'an incoming message');
    return { body: { conversationId: body.data.conversation._id } };
  },
  'POST /api/v1/workspace/members/{id}/accept': async ({ api }) => ({ ids: { id: (await addMember(api, {}, { invited: true }))._id } }),
  // To the same time two days later.
  'POST /api/v1/scheduling/bookings/{id}/reschedule': onResource(() => {
    const startAt = quarterHourIn(96);
    return { startAt, endAt: minutesAfter(startAt, 30) };
  }),
  'POST /api/v1/scheduling/bookings/{id}/complete': startedBooking,
  'POST /api/v1/scheduling/bookings/{id}/no-show': startedBooking,
  'POST /api/v1/integrations/webhooks/{id}/retry/{deliveryId}': async (setup) => ({ ids: await failedDelivery(setup) }),
  // Every delivery the subscription failed in the last hour, attempted again.
  'POST /api/v1/integrations/webhooks/{id}/recover': async (setup) => {
    const { id } = await failedDelivery(setup);
    return { ids: { id }, body: { since: new Date(Date.now() - 3_600_000).toISOString() } };
  },
  'POST /api/v1/workflows/{id}/deactivate': after((api, id) => ok(api.post(`${WORKFLOWS}/${id}/activate`), 'activating the workflow')),
  'POST /api/v1/workflows/executions/{id}/cancel': waitingExecution,
  'POST /api/v1/workflows/executions/{id}/retry': failedExecution,
};
