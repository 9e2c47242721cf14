import { describe, expect, it } from 'vitest';
import { client } from '../support/api';
import { outboxEvents } from '../support/outbox';
import { startReceiver } from '../support/https-receiver';
import { agentId } from '../support/members';
import { createTenant } from '../support/tenants';
import { eventually, sleep, useWebhookStack } from '../support/webhooks';
import { call, createWorkflow, edge, finished, node, trigger } from '../support/workflows';
import { sweepDueSteps } from '../../shared/workflows/sweep';
import { runDueSchedules } from '../../shared/workflows/triggers';
import { direct } from '../../shared/data/unit';

const ctx = useWebhookStack();
const WF = '/api/v1/workflows';
const tenant = async () => {
  const t = await createTenant();
  return { ...t, api: client(ctx.stack.baseUrl, t) };
};
const simple = { nodes: [node('a', 'set_variable', { name: 'x', value: '{{trigger.n}}' })], edges: [] };

describe('workflow definitions', () => {
  it('are created inactive at version 1, changed into new versions, activated, deactivated and deleted, each with its event', async () => {
    const { api, workspaceId } = await tenant();
    const created = await api.post(WF, { name: 'Greeter', trigger: { type: 'manual' }, ...simple });
    expect(created.status).toBe(201);
    const w = created.body.data.workflow;
    expect(w).toMatchObject({ name: 'Greeter', active: false, version: 1, trigger: { type: 'manual' }, nodes: simple.nodes, edges: [] });
    expect((await api.get(`${WF}/${w._id}`)).body.data.workflow).toEqual(w);

    const changed = await api.patch(`${WF}/${w._id}`, {
      nodes: [...simple.nodes, node('b', 'wait', { seconds: 0 })],
      edges: [edge('a', 'b')],
    });
    expect(changed.status).toBe(200);
    expect(changed.body.data.workflow.version).toBe(2);
    const same = await api.patch(`${WF}/${w._id}`, { name: 'Greeter' });
    expect(same.body.data.workflow).toEqual(changed.body.data.workflow);
    expect((await api.get(`${WF}/${w._id}/versions`)).body.data.versions.map((v: any) => [v.version, v.nodes.length])).toEqual([
      [2, 2],
      [1, 1],
    ]);

    expect((await api.post(`${WF}/${w._id}/activate`)).body.data.workflow.active).toBe(true);
    expect((await api.post(`${WF}/${w._id}/deactivate`)).body.data.workflow.active).toBe(false);
    const list = (await api.get(WF)).body.data;
    expect(list.pagination.total).toBe(1);
    expect(list.workflows.map((x: any) => x._id)).toEqual([w._id]);

    const deleted = await api.delete(`${WF}/${w._id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toMatchObject({ workflow: { _id: w._id, name: w.name }, deleted: true });
    expect((await api.get(`${WF}/${w._id}`)).status).toBe(404);
    expect((await api.get(WF)).body.data.pagination.total).toBe(0);

    const types = (await outboxEvents(workspaceId)).filter((e) => e.eventType.startsWith('workflow.definition')).map((e) => e.eventType);
    expect(types).toEqual([
      'workflow.definition.created',
      'workflow.definition.updated',
      'workflow.definition.activated',
      'workflow.definition.deactivated',
      'workflow.definition.deleted',
    ]);
    const updated = (await outboxEvents(workspaceId, 'workflow.definition.updated'))[0]!;
    expect(updated.changes).toEqual({ version: [1, 2] });
  });

  it('refuse a broken graph with 422 naming each failing edge or node config', async () => {
    const { api } = await tenant();
    const res = await api.post(WF, {
      name: 'Broken',
      trigger: { type: 'manual' },
      nodes: [
        call('a', 'https://example.com/a'),
        node('b', 'retry', { maxAttempts: 0, backoff: 'fixed', baseDelaySeconds: 1 }),
        call('c', 'ftp://example.com'),
      ],
      edges: [edge('a', 'b'), edge('b', 'c', 'body'), edge('a', 'c', 'try')],
    });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details.errors).toEqual(
      expect.arrayContaining([
        { path: 'edges[2].branch', message: expect.stringContaining('no "try" branch') },
        { path: 'edges[2].to', message: expect.stringContaining('already has an incoming edge') },
      ]),
    );
    const configs = await api.post(WF, {
      name: 'Configs',
      trigger: { type: 'manual' },
      nodes: [node('b', 'retry', { maxAttempts: 0, backoff: 'fixed', baseDelaySeconds: 1 }), call('c', 'ftp://example.com')],
      edges: [edge('b', 'c', 'body')],
    });
    expect(configs.body.error.details.errors).toEqual([
      { path: 'nodes[0].config.maxAttempts', message: expect.any(String) },
      { path: 'nodes[1].config.url', message: 'Must be an https URL' },
    ]);
  });

  it('refuse an http_request URL on a private address, as webhook URLs are refused', async () => {
    const { api } = await tenant();
    const res = await api.post(WF, {
      name: 'SSRF',
      trigger: { type: 'manual' },
      nodes: [call('a', 'https://10.1.2.3/internal')],
      edges: [],
    });
    expect(res.status).toBe(422);
    expect(res.body.error.details.errors).toEqual([{ path: 'nodes[0].config.url', message: expect.stringContaining('private') }]);
  });
});

describe('workflow executions', () => {
  it('answer a manual trigger with 202 and the queued execution, and list by workflow and status with exact totals', {
    timeout: 60_000,
  }, async () => {
    const { api, workspaceId } = await tenant();
    const a = await createWorkflow(api, simple);
    const b = await createWorkflow(api, { nodes: [node('f', 'fail', { message: 'nope' })], edges: [] });
    const res = await api.post(`${WF}/${a._id}/trigger`, { payload: { n: 7 } });
    expect(res.status).toBe(202);
    expect(res.body.data.execution).toMatchObject({
      workflowId: a._id,
      workflowVersion: 1,
      status: 'queued',
      trigger: { type: 'manual', payload: { n: 7 } },
      depth: 1,
    });
    const done = await finished(api, res.body.data.execution._id);
    expect(done.steps).toEqual([
      expect.objectContaining({
        nodeId: 'a',
        nodeType: 'set_variable',
        attempt: 1,
        status: 'succeeded',
        delayBeforeMs: 0,
        output: { name: 'x', value: '7' },
      }),
    ]);
    const failed = await finished(api, (await trigger(api, b._id))._id);
    expect(failed.status).toBe('failed');

    const list = async (query: string) => (await api.get(`${WF}/executions${query}`)).body.data;
    expect((await list('')).pagination.total).toBe(2);
    expect((await list(`?workflowId=${a._id}`)).executions.map((e: any) => e._id)).toEqual([done._id]);
    expect((await list('?status=failed')).executions.map((e: any) => e._id)).toEqual([failed._id]);
    expect((await list(`?workflowId=${a._id}&status=failed`)).pagination.total).toBe(0);
    expect((await list(`?workflowId=${b._id}&status=failed`)).pagination.total).toBe(1);
    expect((await api.get(`${WF}/executions?status=sleeping`)).status).toBe(422);

    const events = (await outboxEvents(workspaceId))
      .map((e) => e.eventType)
      .filter((t) => t.startsWith('workflow.execution') || t === 'workflow.step.failed');
    expect(events.sort()).toEqual([
      'workflow.execution.completed',
      'workflow.execution.failed',
      'workflow.execution.started',
      'workflow.execution.started',
      'workflow.step.failed',
    ]);
  });

  it('refuse to run an inactive event-triggered workflow by hand (409)', async () => {
    const { api } = await tenant();
    const w = await createWorkflow(api, { trigger: { type: 'event', eventTypes: ['customer.*'] }, ...simple });
    expect((await api.post(`${WF}/${w._id}/trigger`, {})).status).toBe(409);
  });

  it('cancel a waiting execution, which then never runs its next step', { timeout: 60_000 }, async () => {
    const { api } = await tenant();
    const w = await createWorkflow(api, {
      nodes: [node('pause', 'wait', { seconds: 2 }), node('after', 'set_variable', { name: 'y', value: 1 })],
      edges: [edge('pause', 'after')],
    });
    const run = await trigger(api, w._id);
    await eventually(async () => (await api.get(`${WF}/executions/${run._id}`)).body.data.execution.status === 'waiting');
    const cancelled = await api.post(`${WF}/executions/${run._id}/cancel`);
    expect(cancelled.body.data.execution.status).toBe('cancelled');
    expect((await api.post(`${WF}/executions/${run._id}/cancel`)).status).toBe(409);
    await sleep(3500);
    const after = (await api.get(`${WF}/executions/${run._id}`)).body.data.execution;
    expect(after.status).toBe('cancelled');
    expect(after.steps.map((s: any) => s.nodeId)).toEqual(['pause']);
  });

  it('retry a failed execution from its failed step, as a new attempt', { timeout: 60_000 }, async () => {
    const receiver = await startReceiver((_r, i) => ({ status: i === 0 ? 503 : 200 }));
    try {
      const { api } = await tenant();
      const w = await createWorkflow(api, {
        nodes: [node('first', 'set_variable', { name: 'v', value: 'kept' }), call('call', receiver.url, { body: { v: '{{vars.v}}' } })],
        edges: [edge('first', 'call')],
      });
      const failed = await finished(api, (await trigger(api, w._id))._id);
      expect(failed.status).toBe('failed');
      expect((await api.post(`${WF}/executions/${failed._id}/retry`)).status).toBe(202);
      const done = await finished(api, failed._id);
      expect(done.status).toBe('completed');
      expect(done.steps.map((s: any) => [s.nodeId, s.attempt, s.status])).toEqual([
        ['first', 1, 'succeeded'],
        ['call', 1, 'failed'],
        ['call', 2, 'succeeded'],
      ]);
      expect(receiver.received.map((r) => JSON.parse(r.body))).toEqual([{ v: 'kept' }, { v: 'kept' }]);
      expect((await api.post(`${WF}/executions/${failed._id}/retry`)).status).toBe(409);
    } finally {
      await receiver.stop();
    }
  });

  it('leave a wait beyond the SQS delay limit to the due-time sweep, which sends its message when it is nearly due', {
    timeout: 60_000,
  }, async () => {
    const { api } = await tenant();
    const w = await createWorkflow(api, {
      nodes: [node('pause', 'wait', { seconds: 3600 }), node('after', 'set_variable', { name: 'y', value: 1 })],
      edges: [edge('pause', 'after')],
    });
    const run = await trigger(api, w._id);
    await eventually(async () => (await api.get(`${WF}/executions/${run._id}`)).body.data.execution.status === 'waiting');
    expect(await sweepDueSteps(direct, new Date())).toBe(0);
    expect(await sweepDueSteps(direct, new Date(Date.now() + 3600_000))).toBe(1);
    expect(await sweepDueSteps(direct, new Date(Date.now() + 3600_000))).toBe(0);
  });
});

describe('workflow triggers', () => {
  it('start a run of an active event-triggered workflow on a real domain event that matches its type and filter, once', {
    timeout: 60_000,
  }, async () => {
    const { api } = await tenant();
    const w = await createWorkflow(api, {
      trigger: { type: 'event', eventTypes: ['customer.contact.*'], filter: { 'contact.name': 'Ada' } },
      nodes: [node('a', 'set_variable', { name: 'who', value: '{{trigger.contact.email}}' })],
      edges: [],
    });
    await api.post(`${WF}/${w._id}/activate`);
    await api.post('/api/v1/contacts/customers', { name: 'Bob', email: 'bob@example.com' });
    const ada = (await api.post('/api/v1/contacts/customers', { name: 'Ada', email: 'ada@example.com' })).body.data.customer;
    const [run] = await eventually(async () => {
      const list = (await api.get(`${WF}/executions?workflowId=${w._id}`)).body.data.executions;
      return list.length > 0 && list;
    });
    const done = await finished(api, run._id);
    expect(done.trigger).toMatchObject({ type: 'event', eventId: expect.any(String), payload: { contact: { _id: ada._id } } });
    expect(done.steps[0].output).toEqual({ name: 'who', value: 'ada@example.com' });
    await sleep(1500);
    expect((await api.get(`${WF}/executions?workflowId=${w._id}`)).body.data.pagination.total).toBe(1);
  });

  it('stop a workflow that triggers itself at causal depth 3', { timeout: 90_000 }, async () => {
    const { api, workspaceId } = await tenant();
    const customer = (await api.post('/api/v1/contacts/customers', { name: 'Loop', email: 'loop@example.com' })).body.data.customer;
    const conversation = (await api.post('/api/v1/inbox/conversations', { customerId: customer._id, subject: 'loop' })).body.data
      .conversation;
    const w = await createWorkflow(api, {
      trigger: { type: 'event', eventTypes: ['inbox.note.created'] },
      nodes: [node('echo', 'add_note', { conversationId: '{{trigger.conversation._id}}', content: 'echo of {{trigger.note.content}}' })],
      edges: [],
    });
    await api.post(`${WF}/${w._id}/activate`);
    await api.post(`/api/v1/inbox/conversations/${conversation._id}/messages`, { type: 'note', content: 'hello' });
    await eventually(
      async () => (await api.get(`${WF}/executions?workflowId=${w._id}&status=completed`)).body.data.pagination.total === 3,
      60_000,
    );
    await sleep(3000);
    const runs = (await api.get(`${WF}/executions?workflowId=${w._id}`)).body.data.executions;
    expect(runs.map((r: any) => r.depth).sort()).toEqual([1, 2, 3]);
    const notes = await outboxEvents(workspaceId, 'inbox.note.created');
    expect(notes.map((n) => n.causedBy?.depth ?? 0)).toEqual([0, 1, 2, 3]);
    expect(notes.at(-1)!.data).toMatchObject({ note: { content: 'echo of echo of echo of hello', author: { type: 'system', id: w._id } } });
  });

  it('start a scheduled run once per cron time in its time zone', { timeout: 60_000 }, async () => {
    const { api } = await tenant();
    const w = await createWorkflow(api, { trigger: { type: 'schedule', cron: '30 9 * * *', timezone: 'Asia/Tokyo' }, ...simple });
    await api.post(`${WF}/${w._id}/activate`);
    const next = new Date();
    next.setUTCHours(0, 30, 0, 0); // 09:30 in Tokyo (UTC+9, no DST)
    if (next.getTime() <= Date.now()) next.setUTCDate(next.getUTCDate() + 1);
    expect(await runDueSchedules(direct, new Date(next.getTime() - 1000))).toBe(0);
    expect(await runDueSchedules(direct, new Date(next.getTime() + 1000))).toBe(1);
    expect(await runDueSchedules(direct, new Date(next.getTime() + 2000))).toBe(0);
    const [run] = (await api.get(`${WF}/executions?workflowId=${w._id}`)).body.data.executions;
    expect(run.trigger).toEqual({ type: 'schedule', payload: { scheduledAt: next.toISOString() } });
  });
});

describe('workflow actions', () => {
  it('reply, note, tag, assign and close a conversation from templates, each with its domain event caused by the run', {
    timeout: 60_000,
  }, async () => {
    const { api, workspaceId } = await tenant();
    const customer = (await api.post('/api/v1/contacts/customers', { name: 'Grace', email: 'grace@example.com' })).body.data.customer;
    const conversation = (await api.post('/api/v1/inbox/conversations', { customerId: customer._id, subject: 'order' })).body.data
      .conversation;
    const tag = (await api.post('/api/v1/tags', { name: 'automated' })).body.data.tag;
    const agent = await agentId(api);
    const w = await createWorkflow(api, {
      nodes: [
        node('reply', 'send_message', { conversationId: '{{trigger.id}}', content: 'Hello {{trigger.name}}' }),
        node('note', 'add_note', { conversationId: '{{trigger.id}}', content: 'replied as {{nodes.reply.output.messageId}}' }),
        node('tag', 'add_tags', { entityType: 'conversation', entityId: '{{trigger.id}}', tagIds: ['{{trigger.tag}}'] }),
        node('assign', 'assign_conversation', { conversationId: '{{trigger.id}}', assigneeId: agent }),
        node('close', 'change_conversation_status', { conversationId: '{{trigger.id}}', status: 'closed' }),
      ],
      edges: [edge('reply', 'note'), edge('note', 'tag'), edge('tag', 'assign'), edge('assign', 'close')],
    });
    const done = await finished(api, (await trigger(api, w._id, { id: conversation._id, name: 'Grace', tag: tag._id }))._id);
    expect(done.status).toBe('completed');
    const after = (await api.get(`/api/v1/inbox/conversations/${conversation._id}`)).body.data.conversation;
    expect(after).toMatchObject({ status: 'closed', assigneeId: agent, tagIds: [tag._id] });
    const messages = (await api.get(`/api/v1/inbox/conversations/${conversation._id}/messages`)).body.data.messages;
    expect(messages.map((m: any) => [m.type, m.content])).toEqual([
      ['outgoing', 'Hello Grace'],
      ['note', `replied as ${done.steps[0].output.messageId}`],
    ]);
    const caused = (await outboxEvents(workspaceId)).filter(
      (e) => e.causedBy?.executionId === done._id && !e.eventType.startsWith('workflow.'),
    );
    expect(caused.map((e) => e.eventType)).toEqual([
      'inbox.message.sent',
      'inbox.note.created',
      'inbox.conversation.tagged',
      'inbox.conversation.assigned',
      'inbox.conversation.closed',
    ]);
  });

  it('fail the step, not the worker, on a missing conversation: the error is categorized not_found', { timeout: 60_000 }, async () => {
    const { api } = await tenant();
    const w = await createWorkflow(api, {
      nodes: [node('reply', 'send_message', { conversationId: '0123456789abcdef01234567', content: 'hi' })],
      edges: [],
    });
    const done = await finished(api, (await trigger(api, w._id))._id);
    expect(done.status).toBe('failed');
    expect(done.steps[0].error).toEqual({ message: 'Conversation not found', category: 'not_found' });
  });
});
