import { describe, expect, it } from 'vitest';
import { handler as remindDueTasks } from '../../functions/schedules/remind-due-tasks';
import { revokeToken } from '../../shared/auth/tokens';
import { renameWorkspace } from '../../shared/workspace/settings';
import { eventCatalog } from '../../shared/events/catalog';
import type { Client } from '../support/api';
import { postForm, sendUpload } from '../support/files';
import { verifyUpload } from '../../shared/files/files';
import { startImport } from '../../shared/imports/imports';
import { runImport } from '../../shared/imports/run';
import { runErasure } from '../../shared/erasure/run';
import { outboxEvents } from '../support/outbox';
import { useTestStack } from '../support/stack';
import { tokenFor } from '../support/tenants';
import { testTenant } from '../../shared/domain/auth/tenant';
import { runStep } from '../../shared/workflows/runner';
import { handleOutgoing } from '../../shared/channels/outgoing';
import { handleBroadcastMessage } from '../../shared/broadcasts/worker';
import { markChannelErrored } from '../../shared/channels/account-records';
import { createBooking, sendDueReminders } from '../../shared/scheduling/bookings';
import { addMember, agentId, MEMBERS, quarterHourIn } from '../support/members';
import { direct } from '../../shared/data/unit';

const env = useTestStack({ workers: false });

const CUSTOMERS = '/api/v1/contacts/customers';
const CONV = '/api/v1/inbox/conversations';
const CRM = '/api/v1/crm';

const created = async (api: Client, path: string, body: unknown, key: string): Promise<string> => {
  const res = await api.post(path, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data[key]._id;
};

/** Everything in CRM that emits an event; the task created due in the past is reminded by the timer afterwards. */
const crmCalls = async (api: Client, customerId: string, tag: string): Promise<[string, string, unknown?][]> => {
  const pipeline = (await api.post(`${CRM}/pipelines`, { name: 'Sales' })).body.data.pipeline;
  const [open, won, lost] = ['open', 'won', 'lost'].map((kind) => pipeline.stages.find((s: { kind: string }) => s.kind === kind)._id);
  const spare = await created(api, `${CRM}/pipelines`, { name: 'Spare' }, 'pipeline');
  const lead = await created(
    api,
    `${CRM}/leads`,
    { title: 'Deal', pipelineId: pipeline._id, customerId, value: { amount: 100, currency: 'USD' } },
    'lead',
  );
  const doomed = await created(api, `${CRM}/leads`, { title: 'Doomed', pipelineId: pipeline._id, stageId: open }, 'lead');
  const task = await created(
    api,
    `${CRM}/tasks`,
    { title: 'Call', leadId: lead, dueAt: new Date(Date.now() - 1000).toISOString() },
    'task',
  );
  const other = await created(api, `${CRM}/tasks`, { title: 'Other' }, 'task');
  const note = await created(api, `${CRM}/activities`, { type: 'note', leadId: lead, body: 'hi' }, 'activity');
  return [
    ['patch', `${CRM}/pipelines/${spare}`, { name: 'Spare 2' }],
    ['delete', `${CRM}/pipelines/${spare}`],
    ['patch', `${CRM}/leads/${lead}`, { title: 'Deal 2', assigneeId: await agentId(api) }],
    ['post', `${CRM}/leads/${lead}/move`, { stageId: won }],
    ['post', `${CRM}/leads/${lead}/move`, { stageId: lost, lostReason: 'price' }],
    ['post', `${CRM}/leads/${lead}/tags`, { tagIds: [tag] }],
    ['delete', `${CRM}/leads/${lead}/tags/${tag}`],
    ['delete', `${CRM}/leads/${doomed}`],
    ['patch', `${CRM}/tasks/${other}`, { priority: 'urgent' }],
    ['post', `${CRM}/tasks/${task}/complete`],
    ['delete', `${CRM}/tasks/${other}`],
    ['delete', `${CRM}/activities/${note}`],
    ['post', `${CRM}/tasks`, { title: 'Due now', dueAt: new Date(Date.now() - 1000).toISOString() }],
  ];
};

/** Members and bookings; a booking that has started is made with an earlier clock, and its reminder sent with a later one. */
const memberAndBookingCalls = async (api: Client, workspaceId: string, customerId: string): Promise<[string, string, unknown?][]> => {
  const tenant = testTenant(workspaceId);
  const member = await addMember(api, { role: 'agent' });
  const assigneeId = await agentId(api);
  const startAt = quarterHourIn(48);
  const booking = await created(
    api,
    '/api/v1/scheduling/bookings',
    { title: 'Call', customerId, assigneeId, startAt, endAt: quarterHourIn(49) },
    'booking',
  );
  const started = quarterHourIn(-0.5);
  const input = { title: 'Call', customerId, assigneeId, startAt: started, endAt: quarterHourIn(-0.25), timezone: 'UTC' };
  const [done, missed] = await Promise.all([
    createBooking(direct, tenant, input, new Date(Date.now() - 86_400_000)),
    createBooking(direct, tenant, { ...input, assigneeId: member._id }, new Date(Date.now() - 86_400_000)),
  ]);
  await sendDueReminders(direct, tenant, booking, new Date(Date.parse(startAt) - 3_000_000));
  const B = '/api/v1/scheduling/bookings';
  return [
    ['patch', `${MEMBERS}/${member._id}`, { role: 'manager' }],
    ['post', `${B}/${booking}/confirm`],
    ['post', `${B}/${booking}/reschedule`, { startAt: quarterHourIn(50), endAt: quarterHourIn(51) }],
    ['post', `${B}/${booking}/cancel`, {}],
    ['post', `${B}/${done._id}/confirm`],
    ['post', `${B}/${done._id}/complete`],
    ['post', `${B}/${missed._id}/confirm`],
    ['post', `${B}/${missed._id}/no-show`],
    ['delete', `${MEMBERS}/${member._id}`],
  ];
};

/** Does, through the API and the CLI's repositories, everything that emits an event today. */
const ARTICLES = '/api/v1/ai/knowledge-base/articles';

const PNG_BYTES = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]);

const emitEverything = async (api: Client, workspaceId: string) => {
  const ada = await created(api, CUSTOMERS, { name: 'Ada', email: 'ada@example.com' }, 'customer');
  const bob = await created(api, CUSTOMERS, { name: 'Bob' }, 'customer');
  const eve = await created(api, CUSTOMERS, { name: 'Eve' }, 'customer');
  const tag = await created(api, '/api/v1/tags', { name: 'vip' }, 'tag');
  const conv = await created(api, CONV, { customerId: ada, subject: 'Hello' }, 'conversation');
  const article = await created(api, ARTICLES, { title: 'Returns', body: 'Send it back within 30 days.' }, 'article');
  const agent = await agentId(api);
  const calls: [string, string, unknown?][] = [
    ['patch', `${CUSTOMERS}/${ada}`, { phone: '+442071234567' }],
    ['post', `${CUSTOMERS}/${ada}/block`],
    ['post', `${CUSTOMERS}/${ada}/unblock`],
    ['post', `${CUSTOMERS}/${ada}/tags`, { tagIds: [tag] }],
    ['delete', `${CUSTOMERS}/${ada}/tags/${tag}`],
    ['post', `${CUSTOMERS}/merge`, { baseId: ada, mergeeId: bob }],
    ['delete', `${CUSTOMERS}/${eve}`],
    ['patch', `${CONV}/${conv}`, { subject: 'Hello again', priority: 'high' }],
    ['post', `${CONV}/${conv}/assign`, { assigneeId: agent }],
    ['post', `${CONV}/${conv}/unassign`],
    ['post', `${CONV}/${conv}/status`, { status: 'pending' }],
    ['post', `${CONV}/${conv}/status`, { status: 'snoozed', snoozedUntil: new Date(Date.now() + 3_600_000).toISOString() }],
    ['post', `${CONV}/${conv}/status`, { status: 'closed' }],
    ['post', `${CONV}/${conv}/status`, { status: 'open' }],
    ['post', `${CONV}/${conv}/tags`, { tagIds: [tag] }],
    ['delete', `${CONV}/${conv}/tags/${tag}`],
    ['post', `${CONV}/${conv}/messages`, { type: 'outgoing', content: 'Hi Ada' }],
    ['post', `${CONV}/${conv}/messages`, { type: 'note', content: 'VIP customer' }],
    ['post', '/api/v1/inbox/messages/incoming', { channel: 'email', customer: { identifier: 'ada@example.com' }, content: 'Thanks' }],
    ['delete', `${CONV}/${conv}`],
    ['patch', `${ARTICLES}/${article}`, { tags: ['returns'] }],
    ['delete', `${ARTICLES}/${article}`],
  ];
  for (const [method, path, body] of [
    ...calls,
    ...(await crmCalls(api, ada, tag)),
    ...(await memberAndBookingCalls(api, workspaceId, ada)),
  ]) {
    const res = await api.call(method.toUpperCase(), path, body);
    expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
  }
  await runWorkflows(api, workspaceId);
  await channelsAndBroadcasts(api, workspaceId);
  await files(api);
  await imports(api, workspaceId);
  await remindDueTasks();
  const { record } = await tokenFor([workspaceId], ['inbox:read']);
  await revokeToken(direct, record._id);
  await renameWorkspace(direct, workspaceId, 'Renamed');
};

/** Channel accounts, replies and broadcasts through the API; their queue workers run here, one message at a time. */
const channelsAndBroadcasts = async (api: Client, workspaceId: string) => {
  const tenant = testTenant(workspaceId);
  const channel = async (config: object) => created(api, '/api/v1/channels', { type: 'sandbox', name: 'Sandbox', config }, 'channel');
  const reading = await channel({ deliver: true, read: true });
  const failing = await channel({ failWith: 'invalid_recipient' });
  const doomed = await channel({});
  const customer = await created(api, CUSTOMERS, { name: 'Reader' }, 'customer');
  for (const [method, path, body] of [
    ['PATCH', `/api/v1/channels/${doomed}`, { name: 'Renamed' }],
    ['POST', `/api/v1/channels/${doomed}/disconnect`],
    ['POST', `/api/v1/channels/${doomed}/connect`],
    ['DELETE', `/api/v1/channels/${doomed}`],
  ] as [string, string, unknown?][]) {
    const res = await api.call(method, path, body);
    expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
  }
  await markChannelErrored(direct, tenant, failing, 'smtp_auth_failed', new Date());
  await api.post(`/api/v1/channels/${failing}/connect`);
  for (const channelId of [reading, failing]) {
    const conv = await created(api, CONV, { customerId: customer, channelId }, 'conversation');
    const message = (await api.post(`${CONV}/${conv}/messages`, { content: 'Through a channel' })).body.data.message;
    await handleOutgoing({ tenant, _id: message._id, conversationId: conv, createdAt: message.createdAt });
    const broadcast = await created(
      api,
      '/api/v1/broadcasts',
      { name: 'b', channelId, audience: { customerIds: [customer] }, content: 'Hi' },
      'broadcast',
    );
    await api.post(`/api/v1/broadcasts/${broadcast}/schedule`, { at: new Date(Date.now() + 3_600_000).toISOString() });
    await api.post(`/api/v1/broadcasts/${broadcast}/send`);
    await handleBroadcastMessage({ kind: 'start', tenant, broadcastId: broadcast });
    await handleBroadcastMessage({ kind: 'recipient', tenant, broadcastId: broadcast, customerId: customer });
  }
  const cancelled = await created(
    api,
    '/api/v1/broadcasts',
    { name: 'c', channelId: reading, audience: { customerIds: [customer] }, content: 'Hi' },
    'broadcast',
  );
  await api.post(`/api/v1/broadcasts/${cancelled}/cancel`);
};

/** Workflow definitions through the API; their runs' steps run here, one message at a time (no workers in this file). */
/** A verified file that is then deleted, and PNG bytes declared as a PDF (rejected); this stack has no bus, so the test verifies. */
const files = async (api: Client) => {
  const uploaded = async (name: string, bytes: Uint8Array, contentType: string) => {
    const { id, upload } = await sendUpload(api, name, bytes, contentType);
    await verifyUpload(direct, upload.fields.key!, new Date());
    return (await api.get(`/api/v1/files/${id}`)).body.data.file;
  };
  const ready = await uploaded('note.txt', new TextEncoder().encode('hello\n'), 'text/plain');
  expect(ready.status).toBe('ready');
  expect((await api.delete(`/api/v1/files/${ready._id}`)).status).toBe(200);
  expect((await uploaded('not-a.pdf', PNG_BYTES, 'application/pdf')).status).toBe('rejected');
};

/** A customers import and a leads import of one row each; this stack has no bus or workers, so the test starts and runs them. */
const imports = async (api: Client, workspaceId: string) => {
  const tenant = testTenant(workspaceId);
  const pipelineId = await created(api, `${CRM}/pipelines`, { name: 'Imported' }, 'pipeline');
  for (const [path, body, csv] of [
    [`${CUSTOMERS}/imports`, { idProperty: 'email' }, 'email\nimported@example.com\n'],
    [`${CRM}/leads/imports`, { pipelineId }, 'title\nImported deal\n'],
  ] as const) {
    const { import: job, upload } = (await api.post(path, body)).body.data;
    expect((await postForm(upload, new TextEncoder().encode(csv), 'text/csv')).status).toBe(204);
    await startImport(direct, upload.fields.key);
    await runImport(direct, { tenant, kind: 'import', importId: job._id }, () => new Date());
    expect((await api.get(`${path}/${job._id}`)).body.data.import.status).toBe('completed');
  }
  const erased = await created(api, CUSTOMERS, { name: 'Erased' }, 'customer');
  const { erasure } = (await api.post(`${CUSTOMERS}/${erased}/erase`)).body.data;
  await runErasure(direct, { tenant, kind: 'erasure', erasureId: erasure._id }, () => new Date());
  expect((await api.get(`/api/v1/contacts/erasures/${erasure._id}`)).body.data.erasure.status).toBe('completed');
};

const runWorkflows = async (api: Client, workspaceId: string) => {
  const tenant = testTenant(workspaceId);
  const manual = (nodes: object[]) =>
    created(api, '/api/v1/workflows', { name: 'w', trigger: { type: 'manual' }, nodes, edges: [] }, 'workflow');
  const runToEnd = async (workflowId: string) => {
    const execution = (await api.post(`/api/v1/workflows/${workflowId}/trigger`, {})).body.data.execution;
    for (let seq = 0; seq < 5; seq++) await runStep({ tenant, executionId: execution._id, seq });
  };
  const failing = await manual([{ id: 'f', type: 'fail', config: { message: 'boom' } }]);
  await runToEnd(failing);
  await runToEnd(await manual([{ id: 'v', type: 'set_variable', config: { name: 'x', value: 1 } }]));
  const waiting = (await api.post(`/api/v1/workflows/${await manual([{ id: 'w', type: 'wait', config: { seconds: 60 } }])}/trigger`, {}))
    .body.data.execution;
  for (const [method, path, body] of [
    ['POST', `/api/v1/workflows/executions/${waiting._id}/cancel`],
    ['PATCH', `/api/v1/workflows/${failing}`, { name: 'renamed' }],
    ['POST', `/api/v1/workflows/${failing}/activate`],
    ['POST', `/api/v1/workflows/${failing}/deactivate`],
    ['DELETE', `/api/v1/workflows/${failing}`],
  ] as [string, string, unknown?][]) {
    const res = await api.call(method, path, body);
    expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
  }
};

describe('the event catalog against the events Parley really emits', () => {
  // About 60 requests in sequence: on a loaded machine that takes longer than the default 60 s.
  it('emits every available type, only catalogued available types, each with data its schema accepts', async () => {
    const { api, workspaceId } = await env.tenant();
    await emitEverything(api, workspaceId);
    const events = await outboxEvents(workspaceId);
    const byType = new Map(eventCatalog.map((e) => [e.type as string, e]));

    for (const event of events) {
      const entry = byType.get(event.eventType);
      expect(entry?.status, event.eventType).toBe('available');
      const parsed = entry!.data.safeParse(event.data);
      expect(parsed.error?.issues, `${event.eventType}: ${JSON.stringify(event.data)}`).toBeUndefined();
    }
    const available = eventCatalog.filter((e) => e.status === 'available').map((e) => e.type);
    expect(new Set(events.map((e) => e.eventType))).toEqual(new Set(available));
  }, 180_000);
});
