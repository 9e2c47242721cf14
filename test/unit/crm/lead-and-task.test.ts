import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { editLead, moveLead, newLead, stayView } from '../../../shared/domain/crm/lead';
import {
  leadListSource,
  leadListsOf,
  leadListTotal,
  mergedLeadParts,
  storedLeadLists,
  uncountedLeadList,
} from '../../../shared/domain/crm/lead-lists';
import { activityListsOf, timelineCountedOnRead } from '../../../shared/domain/crm/activity';
import { Money } from '../../../shared/domain/crm/money';
import { newPipeline } from '../../../shared/domain/crm/pipeline';
import {
  completeTask,
  editTask,
  isDue,
  newTask,
  taskListCountedOnRead,
  taskListSource,
  taskListsOf,
  taskStatusParts,
  uncountedTaskList,
} from '../../../shared/domain/crm/task';
import { membershipMoves, type Membership } from '../../../shared/domain/lists';

const t0 = new Date('2026-01-01T00:00:00.000Z');
const t1 = new Date('2026-01-02T00:00:00.000Z');
let n = 0;
const pipeline = newPipeline({ name: 'Sales' }, { _id: 'p'.repeat(24), newId: () => String(++n).padStart(24, '0') }, t0);
const stage = (kind: string) => pipeline.stages.find((s) => s.kind === kind)!;

describe('leads', () => {
  it('takes its status from the stage it enters: won and lost close it, an open stage reopens it', () => {
    const lead = newLead({ title: 'Deal' }, pipeline, stage('open'), 'l'.repeat(24), t0);
    const won = moveLead(lead, pipeline, stage('won'), undefined, t1);
    expect(won.lead).toMatchObject({ status: 'won', closedAt: t1.toISOString(), stageEnteredAt: t1.toISOString() });
    expect(won.events.map((e) => e.name)).toEqual(['stage_changed', 'won']);
    const lost = moveLead(won.lead, pipeline, stage('lost'), 'price', t1);
    expect(lost.lead).toMatchObject({ status: 'lost', lostReason: 'price' });
    const reopened = moveLead(lost.lead, pipeline, pipeline.stages[1]!, undefined, t1);
    expect(reopened.lead).toMatchObject({ status: 'open', closedAt: null, lostReason: null });
    expect(reopened.events).toEqual([{ name: 'stage_changed', fields: ['stageId', 'status', 'closedAt', 'lostReason'] }]);
    expect(() => moveLead(lead, pipeline, stage('open'), undefined, t1)).toThrow(expect.objectContaining({ code: 'CONFLICT' }));
    expect(() => moveLead(lead, pipeline, stage('won'), 'why', t1)).toThrow(expect.objectContaining({ code: 'VALIDATION_ERROR' }));
  });

  it('edits into an updated and/or an assigned event, and nothing for a no-op', () => {
    const lead = newLead({ title: 'Deal' }, pipeline, stage('open'), 'l'.repeat(24), t0);
    expect(editLead(lead, { title: 'Deal' }, t1)).toEqual({ lead, events: [] });
    expect(editLead(lead, { title: 'Big', assigneeId: 'a'.repeat(24) }, t1).events).toEqual([
      { name: 'updated', fields: ['title'] },
      { name: 'assigned', fields: ['assigneeId'] },
    ]);
  });

  it('measures a stay in whole seconds, open stays have none', () => {
    expect(stayView({ pipelineId: 'p', stageId: 's', enteredAt: t0.toISOString(), exitedAt: t1.toISOString() }).durationSeconds).toBe(
      86_400,
    );
    expect(stayView({ pipelineId: 'p', stageId: 's', enteredAt: t0.toISOString(), exitedAt: null }).durationSeconds).toBeNull();
  });

  it('accepts ISO 4217 codes and integer minor units only', () => {
    expect(Money.safeParse({ amount: 100, currency: 'JPY' }).success).toBe(true);
    for (const bad of [
      { amount: 1.5, currency: 'USD' },
      { amount: 1, currency: 'usd' },
      { amount: 1, currency: 'XYZ' },
      { amount: -1, currency: 'USD' },
    ]) {
      expect(Money.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });

  it('reads one list per filter combination and refuses combinations without an exact total', () => {
    expect(leadListSource({})).toEqual({ list: 'all' });
    expect(leadListSource({ pipelineId: 'p', status: 'won' })).toEqual({ list: 'pipeline:p:status:won' });
    expect(leadListSource({ pipelineId: 'p', stageId: 's' })).toEqual({ list: 'stage:s' });
    expect(leadListSource({ tagId: 't' })).toEqual({ tagId: 't' });
    expect(() => leadListSource({ customerId: 'c', status: 'open' })).toThrow(expect.objectContaining({ code: 'VALIDATION_ERROR' }));
  });
});

describe('tasks', () => {
  it('owes one reminder per due time while open', () => {
    const task = newTask({ title: 'Call', dueAt: '2026-01-01T10:00:00+02:00' }, 't'.repeat(24), t0);
    expect(task.dueAt).toBe('2026-01-01T08:00:00.000Z');
    expect(isDue(task, null, t1)).toBe(true);
    expect(isDue(task, task.dueAt, t1)).toBe(false);
    expect(isDue(task, null, t0)).toBe(false);
    const moved = editTask(task, { dueAt: '2026-01-01T09:00:00Z' }, t1).task;
    expect(isDue(moved, task.dueAt, t1)).toBe(true);
    expect(isDue(completeTask(task, t1).task, null, t1)).toBe(false);
    expect(() => editTask(completeTask(task, t1).task, { title: 'x' }, t1)).toThrow(expect.objectContaining({ code: 'CONFLICT' }));
  });

  it('sits in the due lists only while open with a due time, ordered by it', () => {
    const task = newTask({ title: 'Call', dueAt: t1.toISOString() }, 't'.repeat(24), t0);
    expect(taskListsOf(task).filter((m) => m.list.startsWith('due'))).toEqual([
      { list: 'due', order: { at: t1.toISOString(), id: task._id } },
      { list: 'due:assignee:none', order: { at: t1.toISOString(), id: task._id } },
    ]);
    expect(taskListsOf(completeTask(task, t1).task).some((m) => m.list.startsWith('due'))).toBe(false);
    expect(taskListSource({ overdue: true, assigneeId: 'a' })).toEqual({ list: 'due:assignee:a', overdue: true });
    expect(() => taskListSource({ leadId: 'l', status: 'open' })).toThrow(expect.objectContaining({ code: 'VALIDATION_ERROR' }));
  });

  it('keeps counters only for the lists whose total is read from one and is no sum of others', () => {
    const task = newTask({ title: 'Call', dueAt: t1.toISOString(), leadId: 'l'.repeat(24) }, 't'.repeat(24), t0);
    expect(
      taskListsOf(task)
        .filter((m) => !uncountedTaskList(m.list))
        .map((m) => m.list),
    ).toEqual(['status:open', 'assignee:none:status:open']);
    expect(taskListCountedOnRead(`lead:${'l'.repeat(24)}`)).toBe(true);
    expect(taskStatusParts('assignee:none')).toEqual(['assignee:none:status:open', 'assignee:none:status:completed']);
    expect(taskStatusParts('all')).toEqual(['status:open', 'status:completed']);
  });

  it("keeps a counter for the workspace's timeline only; a lead's or a customer's is counted on read", () => {
    const lists = activityListsOf({ leadId: 'l'.repeat(24), customerId: 'c'.repeat(24) });
    expect(lists.filter((l) => !timelineCountedOnRead(l))).toEqual(['all']);
    expect(lists).toHaveLength(3);
  });
});

describe('lead list totals', () => {
  const lead = { pipelineId: 'p', stageId: 's', status: 'won' as const, assigneeId: 'a', customerId: 'c' };

  it("reads a stage's and a pipeline's total from the stage items, and counts only the lists no other total covers", () => {
    expect(leadListTotal('stage:s', 'p')).toEqual({ stage: 's', pipelineId: 'p' });
    expect(leadListTotal('stage:s')).toEqual({ stage: 's' });
    expect(leadListTotal('pipeline:p')).toEqual({ pipeline: 'p' });
    expect(leadListTotal('pipeline:p:status:won')).toEqual({ pipeline: 'p', status: 'won' });
    expect(leadListTotal('all')).toEqual({ parts: ['status:open', 'status:won', 'status:lost'] });
    expect(leadListTotal('assignee:a')).toEqual({ parts: ['assignee:a:status:open', 'assignee:a:status:won', 'assignee:a:status:lost'] });
    expect(leadListsOf(lead).filter((l) => !uncountedLeadList(l))).toEqual(['status:won', 'assignee:a:status:won', 'customer:c']);
  });

  it('stores a lead in its status lists and its customer only: the unions merge those, its stage list is its index entry', () => {
    expect(storedLeadLists(lead)).toEqual(['pipeline:p:status:won', 'status:won', 'assignee:a:status:won', 'customer:c']);
    expect(mergedLeadParts('pipeline:p')).toEqual(['pipeline:p:status:open', 'pipeline:p:status:won', 'pipeline:p:status:lost']);
    expect(mergedLeadParts('all')).toEqual(['status:open', 'status:won', 'status:lost']);
    for (const list of ['pipeline:p:status:won', 'stage:s', 'customer:c', 'status:won'])
      expect(mergedLeadParts(list), list).toBeUndefined();
  });
});

describe('list memberships', () => {
  const membership = fc.record({
    list: fc.constantFrom('a', 'b', 'c'),
    order: fc.record({ at: fc.constantFrom('1', '2'), id: fc.constantFrom('x', 'y') }),
  });
  const place = (m: Membership) => `${m.list}|${m.order.at}|${m.order.id}`;
  const set = fc.uniqueArray(membership, { selector: place });

  it('moving from one membership set to another changes each list count by its net difference', () => {
    fc.assert(
      fc.property(set, set, (before: Membership[], after: Membership[]) => {
        const { leave, join, counts } = membershipMoves(before, after);
        const kept = before.filter((m) => !leave.includes(m));
        expect(new Set([...kept, ...join].map(place))).toEqual(new Set(after.map(place)));
        for (const list of ['a', 'b', 'c']) {
          const delta = after.filter((m) => m.list === list).length - before.filter((m) => m.list === list).length;
          expect(counts.find(([l]) => l === list)?.[1] ?? 0).toBe(delta);
        }
      }),
    );
  });
});
