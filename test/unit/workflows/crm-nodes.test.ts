import { describe, expect, it } from 'vitest';
import { validCron } from '../../../shared/domain/workflows/cron';
import { createWorkflowSchema } from '../../../shared/domain/workflows/definition';
import { fieldErrors } from '../../../shared/http/validation';

const Create = createWorkflowSchema(() => true, validCron);
const errorsOf = (nodes: object[], edges: object[] = []) => {
  const body = { name: 'w', trigger: { type: 'manual' }, nodes, edges };
  const parsed = Create.safeParse(body);
  return parsed.success ? [] : fieldErrors(parsed.error, body).errors;
};
const one = (type: string, config: object) => errorsOf([{ id: 'n', type, config }]);
const guarded = (config: object) =>
  errorsOf(
    [
      { id: 'guard', type: 'on_error', config },
      { id: 'boom', type: 'fail', config: { message: 'x' } },
    ],
    [{ from: 'guard', to: 'boom', branch: 'body' }],
  );

describe('CRM node configs', () => {
  it('accepts create_task and move_lead with templates, and escalate with or without an assignee', () => {
    expect(
      one('create_task', {
        title: 'Call {{trigger.name}}',
        priority: 'high',
        dueAt: '{{trigger.due}}',
        leadId: '{{trigger.leadId}}',
        assigneeId: 'a1',
      }),
    ).toEqual([]);
    expect(one('move_lead', { leadId: '{{trigger.leadId}}', stageId: 's1', pipelineId: 'p1', lostReason: 'price' })).toEqual([]);
    expect(guarded({ action: 'escalate' })).toEqual([]);
    expect(guarded({ action: 'escalate', assigneeId: 'agent-1' })).toEqual([]);
  });

  it('names the failing config field', () => {
    const cases: [object[], string, RegExp][] = [
      [one('create_task', {}), 'nodes[0].config.title', /./],
      [one('create_task', { title: '' }), 'nodes[0].config.title', /./],
      [one('create_task', { title: 't', priority: 'asap' }), 'nodes[0].config.priority', /Invalid option/],
      [one('create_task', { title: 't', owner: 'x' }), 'nodes[0].config.owner', /Unknown field/],
      [one('create_task', { title: 't', leadId: '{{nodes.ghost.output.id}}' }), 'nodes[0].config.leadId', /unknown node/],
      [one('move_lead', { leadId: 'l1' }), 'nodes[0].config.stageId', /./],
      [one('move_lead', { stageId: 's1' }), 'nodes[0].config.leadId', /./],
      [one('move_lead', { leadId: 'l1', stageId: 's1', lostReason: 'x'.repeat(501) }), 'nodes[0].config.lostReason', /500/],
      [guarded({ action: 'escalate', assigneeId: '' }), 'nodes[0].config.assigneeId', /./],
    ];
    for (const [errors, path, message] of cases) expect(errors).toContainEqual({ path, message: expect.stringMatching(message) });
  });
});
