import { describe, expect, it } from 'vitest';
import { create, LEADS, makePipeline, TASKS } from '../support/crm';
import { agentId } from '../support/members';
import { useTestStack } from '../support/stack';
import { createWorkflow, edge, finished, node, trigger } from '../support/workflows';
import { getExecution } from '../../shared/data/workflow-executions';
import { runEffect } from '../../shared/workflows/effects';
import type { WorkflowNode } from '../../shared/domain/workflows/nodes';

/** The CRM nodes (create_task, move_lead) and On-Error escalate, through HTTP against the local stack's workers. */
const env = useTestStack();

const tasksOf = async (api: Awaited<ReturnType<typeof env.tenant>>['api']) =>
  (await api.get(TASKS)).body.data.tasks as Record<string, any>[];

describe('workflow CRM nodes', () => {
  it('create_task creates exactly one task from templates, and a redelivered step does not create a second', {
    timeout: 60_000,
  }, async () => {
    const t = await env.tenant();
    const AGENT = await agentId(t.api);
    const config = {
      title: 'Call {{trigger.name}}',
      priority: 'high',
      dueAt: '{{trigger.due}}',
      assigneeId: AGENT,
      customerId: '{{trigger.missing}}',
    };
    const w = await createWorkflow(t.api, { nodes: [node('todo', 'create_task', config)], edges: [] });
    const run = await trigger(t.api, w._id, { name: 'Ada', due: '2030-01-02T03:04:05.000Z' });
    const done = await finished(t.api, run._id);
    expect(done.status).toBe('completed');
    const tasks = await tasksOf(t.api);
    expect(tasks).toHaveLength(1);
    expect(tasks[0]).toMatchObject({
      title: 'Call Ada',
      priority: 'high',
      dueAt: '2030-01-02T03:04:05.000Z',
      assigneeId: AGENT,
      customerId: null,
      status: 'open',
    });
    expect(done.steps).toMatchObject([{ nodeId: 'todo', status: 'succeeded', output: { taskId: tasks[0]!._id } }]);

    // The step's effect run again under its key (a crash after the effect, before the step's record): the recorded outcome comes back.
    const execution = (await getExecution(t.tenant, run._id))!;
    const todo: WorkflowNode = { id: 'todo', type: 'create_task', config: { title: 'Call Ada' } as never };
    const again = await runEffect(
      { tenant: execution.tenant, execution, node: todo, attempt: 1, key: `${run._id}:todo:1`, now: new Date() },
      { title: 'Call Ada' },
    );
    expect(again).toEqual({ ok: true, output: done.steps[0].output });
    expect(await tasksOf(t.api)).toHaveLength(1);
  });

  it('move_lead moves a lead (its stage history shows the move); a missing lead is a not_found step error', {
    timeout: 60_000,
  }, async () => {
    const t = await env.tenant();
    const { pipeline, stage } = await makePipeline(t.api);
    const lead = await create(t.api, LEADS, { title: 'Annual plan', pipelineId: pipeline._id }, 'lead');
    const w = await createWorkflow(t.api, {
      nodes: [node('move', 'move_lead', { leadId: '{{trigger.leadId}}', stageId: stage('Qualified')._id })],
      edges: [],
    });
    const done = await finished(t.api, (await trigger(t.api, w._id, { leadId: lead._id }))._id);
    expect(done.status).toBe('completed');
    expect(done.steps[0].output).toEqual({ leadId: lead._id, pipelineId: pipeline._id, stageId: stage('Qualified')._id, status: 'open' });
    const history = (await t.api.get(`${LEADS}/${lead._id}/stage-history`)).body.data.history;
    expect(history.map((h: { stageId: string }) => h.stageId)).toEqual([stage('New')._id, stage('Qualified')._id]);

    const missing = await finished(t.api, (await trigger(t.api, w._id, { leadId: 'bbbbbbbbbbbbbbbbbbbbbbbb' }))._id);
    expect(missing.status).toBe('failed');
    expect(missing.steps[0].error).toEqual({ message: 'Lead not found', category: 'not_found' });
  });

  it('a failing step under an On-Error escalate creates exactly one urgent task and ends completed_with_errors', {
    timeout: 60_000,
  }, async () => {
    const t = await env.tenant();
    const AGENT = await agentId(t.api);
    const w = await createWorkflow(t.api, {
      nodes: [
        node('guard', 'on_error', { action: 'escalate', assigneeId: AGENT }),
        node('boom', 'fail', { message: 'invalid input' }),
        node('after', 'set_variable', { name: 'x', value: 1 }),
      ],
      edges: [edge('guard', 'boom', 'body'), edge('guard', 'after')],
    });
    const run = await trigger(t.api, w._id);
    const done = await finished(t.api, run._id);
    expect(done.status).toBe('completed_with_errors');
    const tasks = await tasksOf(t.api);
    expect(tasks).toHaveLength(1);
    expect(tasks[0]).toMatchObject({ priority: 'urgent', assigneeId: AGENT, status: 'open', title: 'Workflow step failed: boom' });
    expect(tasks[0]!.description).toContain('invalid input');
    expect(done.steps.map((s: any) => [s.nodeId, s.status])).toEqual([
      ['boom', 'failed'],
      ['guard', 'succeeded'],
      ['after', 'succeeded'],
    ]);
    expect(done.steps[1].output).toMatchObject({ action: 'escalate', taskId: tasks[0]!._id, priority: 'urgent' });
  });
});
