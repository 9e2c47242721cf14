import { describe, expect, it } from 'vitest';
import { handler as remindDueTasks } from '../../functions/schedules/remind-due-tasks';
import { wiring } from '../../functions/wiring';
import { client, expectError } from '../support/api';
import { ACTIVITIES, create, CUSTOMERS, eventsOf, LEADS, makePipeline, TASKS } from '../support/crm';
import { agentId } from '../support/members';
import { useTestStack } from '../support/stack';
import { tokenFor } from '../support/tenants';

const env = useTestStack({ workers: false });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const inMs = (ms: number) => new Date(Date.now() + ms).toISOString();

const tenant = async () => {
  const t = await env.tenant();
  const { pipeline } = await makePipeline(t.api);
  const customer = await create(t.api, CUSTOMERS, { name: 'Ada Lovelace' }, 'customer');
  const lead = await create(t.api, LEADS, { title: 'Deal', pipelineId: pipeline._id, customerId: customer._id }, 'lead');
  const task = (body: Record<string, unknown> = {}) => create(t.api, TASKS, { title: 'Call back', ...body }, 'task');
  return { ...t, customer, lead, task };
};

const ids = (res: { body: any }, key = 'tasks') => res.body.data[key].map((x: { _id: string }) => x._id);

describe('tasks', () => {
  it('creates, gets, updates and deletes a task, one event each with changes on the update', async () => {
    const t = await tenant();
    const AGENT = await agentId(t.api);
    const dueAt = inMs(3_600_000);
    const task = await t.task({
      description: 'Ask about seats',
      priority: 'high',
      dueAt,
      assigneeId: AGENT,
      leadId: t.lead._id,
      customerId: t.customer._id,
    });
    expect(task).toMatchObject({
      title: 'Call back',
      status: 'open',
      priority: 'high',
      dueAt,
      assigneeId: AGENT,
      leadId: t.lead._id,
      completedAt: null,
      conversationId: null,
    });
    expect((await t.api.get(`${TASKS}/${task._id}`)).body.data.task).toEqual(task);
    const updated = await t.api.patch(`${TASKS}/${task._id}`, { priority: 'urgent', dueAt: null });
    expect(updated.body.data.task).toMatchObject({ priority: 'urgent', dueAt: null });
    expect((await t.api.patch(`${TASKS}/${task._id}`, { priority: 'urgent' })).body.data.task.updatedAt).toBe(
      updated.body.data.task.updatedAt,
    );
    expect((await t.api.delete(`${TASKS}/${task._id}`)).status).toBe(200);
    expectError(await t.api.get(`${TASKS}/${task._id}`), 404, 'NOT_FOUND');
    const events = await eventsOf(t.workspaceId, 'task', task._id);
    expect(events.map((e) => e.eventType)).toEqual(['crm.task.created', 'crm.task.updated', 'crm.task.deleted']);
    expect(events[1]!.changes).toEqual({ priority: ['high', 'urgent'], dueAt: [dueAt, null] });
  });

  it('refuses unknown or other-workspace links and bad fields with 422', async () => {
    const t = await tenant();
    const other = await tenant();
    for (const [body, path] of [
      [{ leadId: other.lead._id }, 'leadId'],
      [{ customerId: other.customer._id }, 'customerId'],
      [{ conversationId: 'c'.repeat(24) }, 'conversationId'],
      [{ priority: 'asap' }, 'priority'],
      [{ dueAt: 'tomorrow' }, 'dueAt'],
    ] as const) {
      const res = await t.api.post(TASKS, { title: 'x', ...body });
      expectError(res, 422, 'VALIDATION_ERROR');
      expect(res.body.error.details.errors).toEqual([{ path, message: expect.any(String) }]);
    }
  });

  it('completes a task once, with a task_completed activity on its lead and customer in the same change', async () => {
    const t = await tenant();
    const task = await t.task({ leadId: t.lead._id, customerId: t.customer._id });
    const done = await t.api.post(`${TASKS}/${task._id}/complete`);
    expect(done.status).toBe(200);
    expect(done.body.data.task).toMatchObject({ status: 'completed', completedAt: expect.any(String) });
    expectError(await t.api.post(`${TASKS}/${task._id}/complete`), 409, 'CONFLICT');
    expectError(await t.api.patch(`${TASKS}/${task._id}`, { title: 'again' }), 409, 'CONFLICT');
    const completed = await eventsOf(t.workspaceId, 'task', task._id, 'crm.task.completed');
    expect(completed).toHaveLength(1);
    expect(completed[0]!.changes).toEqual({ status: ['open', 'completed'], completedAt: [null, done.body.data.task.completedAt] });
    const [activity] = (await t.api.get(`${LEADS}/${t.lead._id}/activities`)).body.data.activities;
    expect(activity).toMatchObject({
      type: 'task_completed',
      leadId: t.lead._id,
      customerId: t.customer._id,
      details: { taskId: task._id },
    });
    expect(await eventsOf(t.workspaceId, 'activity', activity._id, 'crm.activity.added')).toHaveLength(1);
    expectError(await t.api.delete(`${ACTIVITIES}/${activity._id}`), 409, 'CONFLICT');
  });

  it('lists by status, assignee, lead and overdue with exact totals', async () => {
    const t = await tenant();
    const AGENT = await agentId(t.api);
    const overdue = await t.task({ dueAt: inMs(-3_600_000), assigneeId: AGENT });
    const later = await t.task({ dueAt: inMs(3_600_000), leadId: t.lead._id });
    const mostOverdue = await t.task({ dueAt: inMs(-7_200_000) });
    const done = await t.task({ dueAt: inMs(-60_000), assigneeId: AGENT });
    await t.api.post(`${TASKS}/${done._id}/complete`);
    const cases: [string, string[]][] = [
      ['', [done._id, mostOverdue._id, later._id, overdue._id]],
      ['status=open', [mostOverdue._id, later._id, overdue._id]],
      ['status=completed', [done._id]],
      [`assigneeId=${AGENT}`, [done._id, overdue._id]],
      [`assigneeId=${AGENT}&status=open`, [overdue._id]],
      ['assigneeId=none', [mostOverdue._id, later._id]],
      [`leadId=${t.lead._id}`, [later._id]],
      ['overdue=true', [mostOverdue._id, overdue._id]],
      [`overdue=true&assigneeId=${AGENT}`, [overdue._id]],
    ];
    for (const [query, expected] of cases) {
      const res = await t.api.get(`${TASKS}?${query}`);
      expect(ids(res), query).toEqual(expected);
      expect(res.body.data.pagination.total, query).toBe(expected.length);
    }
    const page = await t.api.get(`${TASKS}?overdue=true&limit=1`);
    expect(ids(await t.api.get(`${TASKS}?overdue=true&limit=1&cursor=${page.body.data.pagination.nextCursor}`))).toEqual([overdue._id]);
    for (const q of ['overdue=false', `status=open&leadId=${t.lead._id}`, 'overdue=yes'])
      expectError(await t.api.get(`${TASKS}?${q}`), 422, 'VALIDATION_ERROR');
  });

  it('the timer emits crm.task.due exactly once per due time, not before, not for completed tasks, and again only when dueAt moves', async () => {
    // The handler called here is the one the wiring schedules every minute (EventBridge Scheduler on AWS, the local scheduler in npm start).
    expect(wiring.schedules.find((s) => s.target.handler === 'functions/schedules/remind-due-tasks.ts')).toMatchObject({ everyMinutes: 1 });
    const t = await tenant();
    const soon = await t.task({ dueAt: inMs(2000) });
    const later = await t.task({ dueAt: inMs(3_600_000) });
    const completed = await t.task({ dueAt: inMs(-1000) });
    await t.api.post(`${TASKS}/${completed._id}/complete`);
    // Not before its time: `later` is an hour ahead, far beyond any slowness of a loaded machine.
    await remindDueTasks();
    expect(await eventsOf(t.workspaceId, 'task', later._id, 'crm.task.due')).toHaveLength(0);
    // Wait until `soon` is due (however long the requests above took), plus 100 ms.
    await sleep(Math.max(0, Date.parse(soon.dueAt) - Date.now()) + 100);
    // Overlapping runs, as a slow run and the next minute's would be.
    await Promise.all([remindDueTasks(), remindDueTasks(), remindDueTasks()]);
    await remindDueTasks();
    const due = await eventsOf(t.workspaceId, 'task', soon._id, 'crm.task.due');
    expect(due).toHaveLength(1);
    expect(due[0]!.data.task).toMatchObject({ _id: soon._id, status: 'open', dueAt: soon.dueAt });
    expect(due[0]!.livemode).toBe(false);
    expect(await eventsOf(t.workspaceId, 'task', later._id, 'crm.task.due')).toHaveLength(0);
    expect(await eventsOf(t.workspaceId, 'task', completed._id, 'crm.task.due')).toHaveLength(0);
    // An unrelated edit does not re-arm it; a new due time does, once.
    await t.api.patch(`${TASKS}/${soon._id}`, { title: 'Call back today' });
    await remindDueTasks();
    expect(await eventsOf(t.workspaceId, 'task', soon._id, 'crm.task.due')).toHaveLength(1);
    await t.api.patch(`${TASKS}/${soon._id}`, { dueAt: inMs(-1000) });
    await remindDueTasks();
    await remindDueTasks();
    expect(await eventsOf(t.workspaceId, 'task', soon._id, 'crm.task.due')).toHaveLength(2);
  });

  it('answers 404 for another workspace’s task and needs the CRM scopes', async () => {
    const t = await tenant();
    const other = await tenant();
    const theirs = await other.task();
    for (const res of [
      await t.api.get(`${TASKS}/${theirs._id}`),
      await t.api.patch(`${TASKS}/${theirs._id}`, { title: 'x' }),
      await t.api.post(`${TASKS}/${theirs._id}/complete`),
      await t.api.delete(`${TASKS}/${theirs._id}`),
    ])
      expectError(res, 404, 'NOT_FOUND');
    const reader = client(env.stack.baseUrl, { token: (await tokenFor([t.workspaceId], ['crm:read'])).token, workspaceId: t.workspaceId });
    const updater = client(env.stack.baseUrl, {
      token: (await tokenFor([t.workspaceId], ['crm:update'])).token,
      workspaceId: t.workspaceId,
    });
    const mine = await t.task();
    expect((await reader.get(`${TASKS}/${mine._id}`)).status).toBe(200);
    expectError(await reader.post(TASKS, { title: 'x' }), 403, 'FORBIDDEN');
    expectError(await reader.post(`${TASKS}/${mine._id}/complete`), 403, 'FORBIDDEN');
    expectError(await updater.delete(`${TASKS}/${mine._id}`), 403, 'FORBIDDEN');
    expect((await updater.post(`${TASKS}/${mine._id}/complete`)).status).toBe(200);
  });
});

describe('activities and timelines', () => {
  it('logs notes, calls, emails and meetings on a lead (and its customer) with one activity.added each; timelines newest first', async () => {
    const t = await tenant();
    const when = (minutesAgo: number) => inMs(-minutesAgo * 60_000);
    const call = await create(
      t.api,
      ACTIVITIES,
      { type: 'call', leadId: t.lead._id, subject: 'Discovery', durationSeconds: 900, occurredAt: when(30) },
      'activity',
    );
    expect(call).toMatchObject({ type: 'call', leadId: t.lead._id, customerId: t.customer._id, durationSeconds: 900, details: null });
    const note = await create(t.api, ACTIVITIES, { type: 'note', leadId: t.lead._id, body: 'Wants SSO', occurredAt: when(10) }, 'activity');
    const email = await create(
      t.api,
      ACTIVITIES,
      { type: 'email', customerId: t.customer._id, subject: 'Pricing', occurredAt: when(20) },
      'activity',
    );
    const meeting = await create(
      t.api,
      ACTIVITIES,
      { type: 'meeting', leadId: t.lead._id, subject: 'Demo', occurredAt: when(5) },
      'activity',
    );
    expect((await t.api.get(`${ACTIVITIES}/${call._id}`)).body.data.activity).toEqual(call);
    const lead = await t.api.get(`${LEADS}/${t.lead._id}/activities`);
    expect(ids(lead, 'activities')).toEqual([meeting._id, note._id, call._id]);
    expect(lead.body.data.pagination.total).toBe(3);
    const customer = await t.api.get(`${CUSTOMERS}/${t.customer._id}/activities?limit=2`);
    expect(ids(customer, 'activities')).toEqual([meeting._id, note._id]);
    expect(customer.body.data.pagination).toMatchObject({ total: 4, hasMore: true });
    const rest = await t.api.get(`${CUSTOMERS}/${t.customer._id}/activities?limit=2&cursor=${customer.body.data.pagination.nextCursor}`);
    expect(ids(rest, 'activities')).toEqual([email._id, call._id]);
    expect(ids(await t.api.get(`${ACTIVITIES}?leadId=${t.lead._id}`), 'activities')).toEqual([meeting._id, note._id, call._id]);
    expect((await t.api.get(ACTIVITIES)).body.data.pagination.total).toBe(4);
    for (const a of [call, note, email, meeting])
      expect(await eventsOf(t.workspaceId, 'activity', a._id, 'crm.activity.added')).toHaveLength(1);

    expect((await t.api.delete(`${ACTIVITIES}/${note._id}`)).status).toBe(200);
    expect(await eventsOf(t.workspaceId, 'activity', note._id, 'crm.activity.deleted')).toHaveLength(1);
    expect((await t.api.get(`${LEADS}/${t.lead._id}/activities`)).body.data.pagination.total).toBe(2);
  });

  it('refuses an activity on nothing, on an unknown lead or customer, or of a system type (422); other workspaces are 404', async () => {
    const t = await tenant();
    const other = await tenant();
    for (const [body, path] of [
      [{ type: 'note' }, 'leadId'],
      [{ type: 'note', leadId: other.lead._id }, 'leadId'],
      [{ type: 'note', customerId: other.customer._id }, 'customerId'],
      [{ type: 'stage_change', leadId: t.lead._id }, 'type'],
    ] as const) {
      const res = await t.api.post(ACTIVITIES, body);
      expectError(res, 422, 'VALIDATION_ERROR');
      expect(res.body.error.details.errors).toEqual([{ path, message: expect.any(String) }]);
    }
    const theirs = await create(other.api, ACTIVITIES, { type: 'note', leadId: other.lead._id, body: 'secret' }, 'activity');
    expectError(await t.api.get(`${ACTIVITIES}/${theirs._id}`), 404, 'NOT_FOUND');
    expectError(await t.api.delete(`${ACTIVITIES}/${theirs._id}`), 404, 'NOT_FOUND');
    expectError(await t.api.get(`${CUSTOMERS}/${other.customer._id}/activities`), 404, 'NOT_FOUND');
    expect((await t.api.get(`${ACTIVITIES}?leadId=${other.lead._id}`)).body.data.pagination.total).toBe(0);
  });
});
