import type { Tenant } from '../domain/auth/tenant';
import { Missing } from '../domain/refusal';
import { systemActivity } from '../domain/crm/activity';
import {
  completeTask,
  editTask,
  isDue,
  newTask,
  taskListSource,
  type Task,
  type TaskChange,
  type TaskFields,
  type TaskFilters,
} from '../domain/crm/task';
import { buildEnvelope, diff } from '../events/envelope';
import { objectId } from '../ids';
import { outboxItem } from '../data/outbox';
import type { PageRequest } from '../data/query';
import { lostRace, retryOnConflict } from '../data/retry';
import { getTask, taskCreation, taskDeletion, tasksPage, taskUpdate, type StoredTask } from '../data/tasks';
import type { Write } from '../data/transact';
import type { Unit } from '../data/unit';
import { activityAdded } from './activities';

const requireStored = async (tenant: Tenant, id: string): Promise<StoredTask> => {
  const stored = await getTask(tenant, id);
  if (!stored) throw new Missing('Task');
  return stored;
};

export const requireTask = async (tenant: Tenant, id: string): Promise<Task> => (await requireStored(tenant, id)).task;

/** `crm.task.<name>`, with `changes` on the fields the change names. */
const taskEvent = (
  tenant: Tenant,
  name: string,
  before: Task | undefined,
  change: TaskChange['events'][number] | undefined,
  task: Task,
  now: Date,
) => {
  const pick = (t: Task) => Object.fromEntries((change?.fields ?? []).map((f) => [f, t[f]]));
  return outboxItem(
    buildEnvelope(
      `crm.task.${name}` as 'crm.task.created',
      tenant,
      { task },
      { changes: before ? diff(pick(before), pick(task)) : undefined, now },
    ),
  );
};

/**
 * Creates an open task (links checked, lists joined, `crm.task.created`): the service behind `POST /crm/tasks`
 * and workflows, whose `extra` writes (the step's effect record) join the task's transaction.
 */
export const createTask = async (
  unit: Unit,
  tenant: Tenant,
  input: TaskFields & { title: string },
  now: Date,
  extra?: (task: Task) => Write[],
): Promise<Task> => {
  const task = newTask(input, objectId(now.getTime()), now);
  await retryOnConflict(() =>
    unit.commit(
      [...taskCreation(tenant, task), taskEvent(tenant, 'created', undefined, undefined, task, now), ...(extra?.(task) ?? [])],
      lostRace,
    ),
  );
  return task;
};

interface TaskStep {
  change: TaskChange;
  remindedFor?: string | null;
  extra?: Write[];
}

/** Read, decide, write under the version read; the due index, lists, link checks and events follow the change. */
const mutateTask = (
  unit: Unit,
  tenant: Tenant,
  id: string,
  decide: (stored: StoredTask) => TaskStep | undefined,
  now: Date,
): Promise<Task> =>
  retryOnConflict(async () => {
    const stored = await requireStored(tenant, id);
    const before = stored.task;
    const step = decide(stored);
    if (!step || step.change.events.length === 0) return before;
    const after = step.change.task;
    const remindedFor = step.remindedFor !== undefined ? step.remindedFor : stored.remindedFor;
    await unit.commit(
      [
        ...taskUpdate(tenant, stored, after, remindedFor),
        ...step.change.events.map((e) => taskEvent(tenant, e.name, before, e, after, now)),
        ...(step.extra ?? []),
      ],
      lostRace,
    );
    return after;
  });

export const updateTask = (unit: Unit, tenant: Tenant, id: string, patch: TaskFields, now: Date): Promise<Task> =>
  mutateTask(unit, tenant, id, ({ task }) => ({ change: editTask(task, patch, now) }), now);

/** Clears a task's link to customer `customerId` (an erasure), with `extra` in its transaction; a task no longer on it is left as it is. */
export const unlinkTaskCustomer = (unit: Unit, tenant: Tenant, id: string, customerId: string, now: Date, extra: Write[]): Promise<Task> =>
  mutateTask(
    unit,
    tenant,
    id,
    ({ task }) => (task.customerId === customerId ? { change: editTask(task, { customerId: null }, now), extra } : undefined),
    now,
  );

/** Completes a task, with a `task_completed` activity on its lead and customer in the same transaction. */
export const completeTaskById = (unit: Unit, tenant: Tenant, id: string, now: Date): Promise<Task> =>
  mutateTask(
    unit,
    tenant,
    id,
    ({ task }) => {
      const change = completeTask(task, now);
      const activity = systemActivity(
        'task_completed',
        { leadId: task.leadId, customerId: task.customerId },
        `Completed: ${task.title}`,
        { taskId: task._id },
        objectId(now.getTime()),
        now,
      );
      return { change, extra: activityAdded(tenant, activity, now) };
    },
    now,
  );

export const deleteTask = (unit: Unit, tenant: Tenant, id: string, now: Date): Promise<Task> =>
  retryOnConflict(async () => {
    const stored = await requireStored(tenant, id);
    await unit.commit([...taskDeletion(tenant, stored), taskEvent(tenant, 'deleted', undefined, undefined, stored.task, now)], lostRace);
    return stored.task;
  });

/** One page of the list a filter selects; `overdue` reads open tasks due before `now`, most overdue first. */
export const listTasks = async (tenant: Tenant, filters: TaskFilters, page: PageRequest, now: Date) =>
  tasksPage(tenant, taskListSource(filters), page, now);

/**
 * Writes `crm.task.due` for a task whose reminder is owed, and records that it was: the version check
 * makes it happen once however many timer runs overlap; a task changed meanwhile is decided afresh.
 */
export const remindDue = async (unit: Unit, tenant: Tenant, id: string, now: Date): Promise<boolean> => {
  let reminded = false;
  await mutateTask(
    unit,
    tenant,
    id,
    ({ task, remindedFor }) => {
      if (!isDue(task, remindedFor, now)) return undefined;
      reminded = true;
      return { change: { task, events: [{ name: 'due', fields: [] }] }, remindedFor: task.dueAt };
    },
    now,
  );
  return reminded;
};
