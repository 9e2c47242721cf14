import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { Missing } from '../domain/refusal';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import { objectId } from '../ids';
import { buildEnvelope, diff } from '../events/envelope';
import type { Tenant } from '../domain/auth/tenant';
import { systemActivity } from '../domain/crm/activity';
import {
  completeTask,
  editTask,
  isDue,
  newTask,
  owedReminder,
  taskListSource,
  taskListsOf,
  taskStatusParts,
  uncountedTaskList,
  type Task,
  type TaskChange,
  type TaskFields,
  type TaskFilters,
} from '../domain/crm/task';
import { activityWrites } from './activity-writes';
import { changedLinks, linkChecks } from './crm-links';
import { fromIndexSk, indexSk, tenantPk } from './keys';
import { membershipWrites, readItems, readList } from './lists';
import { outboxItem } from './outbox';
import { queryPage, type PageRequest } from './query';
import { lostRace, retryOnConflict } from './retry';
import { createItem, deleteItem, transact, type Write } from './transact';
import { versionedUpdate } from './versioned';
import { K } from './registry/registry';
import { itemCodec } from './codec';
import { task as taskView } from '../views/crm';

/**
 * Tasks: pk=<tenant>#TASK#<id> sk=TASK (versioned). `remindedFor` is the due time whose `crm.task.due` was
 * written. While a reminder is owed (open, due time set, not yet reminded of it) the task carries
 * gsi1pk=TASKDUE gsi1sk=<dueAt>#<tenant>#<id>: the timer's sparse index of reminders in due order.
 * Lists (taskListsOf) are <tenant>#TASKLIST#<list>.
 */
const TASK_DUE_INDEX = K.TASKDUE;

const taskKey = (tenant: Tenant, id: string) => ({ pk: tenantPk(tenant, K.TASK, id), sk: K.TASK });

interface StoredTask {
  task: Task;
  version: number;
  remindedFor: string | null;
}

const fromItem: (item: Record<string, unknown>) => Task = itemCodec(taskView);

const dueIndex = (tenant: Tenant, task: Task, remindedFor: string | null) => {
  const due = owedReminder(task, remindedFor);
  return due ? { gsi1pk: TASK_DUE_INDEX, gsi1sk: indexSk(due, tenant, task._id) } : undefined;
};

const getTask = async (tenant: Tenant, id: string): Promise<StoredTask | undefined> => {
  const { Item } = await dynamo().send(new GetCommand({ TableName: config().TABLE_NAME, Key: taskKey(tenant, id), ConsistentRead: true }));
  return Item
    ? { task: fromItem(Item), version: Item.version as number, remindedFor: (Item.remindedFor as string | undefined) ?? null }
    : undefined;
};

export const requireTask = async (tenant: Tenant, id: string): Promise<Task> => {
  const stored = await getTask(tenant, id);
  if (!stored) throw new Missing('Task');
  return stored.task;
};

const event = (
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
  tenant: Tenant,
  input: TaskFields & { title: string },
  now: Date,
  extra?: (task: Task) => Write[],
): Promise<Task> => {
  const task = newTask(input, objectId(now.getTime()), now);
  await retryOnConflict(() =>
    transact(
      [
        createItem({ ...taskKey(tenant, task._id), type: 'TASK', version: 1, ...task, ...dueIndex(tenant, task, null) }),
        ...membershipWrites(tenant, 'task', task._id, [], taskListsOf(task), uncountedTaskList),
        ...linkChecks(tenant, task),
        event(tenant, 'created', undefined, undefined, task, now),
        ...(extra?.(task) ?? []),
      ],
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
const mutateTask = (tenant: Tenant, id: string, decide: (stored: StoredTask) => TaskStep | undefined, now: Date): Promise<Task> =>
  retryOnConflict(async () => {
    const stored = await getTask(tenant, id);
    if (!stored) throw new Missing('Task');
    const before = stored.task;
    const step = decide(stored);
    if (!step || step.change.events.length === 0) return before;
    const after = step.change.task;
    const remindedFor = step.remindedFor !== undefined ? step.remindedFor : stored.remindedFor;
    const index = dueIndex(tenant, after, remindedFor);
    await transact(
      [
        versionedUpdate(taskKey(tenant, id), stored.version, before, after, {
          set: { ...index, ...(remindedFor ? { remindedFor } : {}) },
          remove: index ? [] : ['gsi1pk', 'gsi1sk'],
        }),
        ...membershipWrites(tenant, 'task', id, taskListsOf(before), taskListsOf(after), uncountedTaskList),
        ...linkChecks(tenant, changedLinks(before, after)),
        ...step.change.events.map((e) => event(tenant, e.name, before, e, after, now)),
        ...(step.extra ?? []),
      ],
      lostRace,
    );
    return after;
  });

export const updateTask = (tenant: Tenant, id: string, patch: TaskFields, now: Date): Promise<Task> =>
  mutateTask(tenant, id, ({ task }) => ({ change: editTask(task, patch, now) }), now);

/** Completes a task, with a `task_completed` activity on its lead and customer in the same transaction. */
export const completeTaskById = (tenant: Tenant, id: string, now: Date): Promise<Task> =>
  mutateTask(
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
      return { change, extra: activityWrites(tenant, activity, now) };
    },
    now,
  );

export const deleteTask = (tenant: Tenant, id: string, now: Date): Promise<Task> =>
  retryOnConflict(async () => {
    const stored = await getTask(tenant, id);
    if (!stored) throw new Missing('Task');
    await transact(
      [
        deleteItem(taskKey(tenant, id), { condition: '#v = :v', names: { '#v': 'version' }, values: { ':v': stored.version } }),
        ...membershipWrites(tenant, 'task', id, taskListsOf(stored.task), [], uncountedTaskList),
        event(tenant, 'deleted', undefined, undefined, stored.task, now),
      ],
      lostRace,
    );
    return stored.task;
  });

/** One page of the list a filter selects; `overdue` reads open tasks due before `now`, most overdue first. */
export const listTasks = async (tenant: Tenant, filters: TaskFilters, page: PageRequest, now: Date) => {
  const source = taskListSource(filters);
  const { ids, total, nextCursor } = source.overdue
    ? await readList(tenant, 'task', source.list, page, { before: now.toISOString() })
    : await readList(tenant, 'task', source.list, page, { newestFirst: true, parts: taskStatusParts(source.list) });
  return {
    tasks: await readItems(
      ids.map((id) => taskKey(tenant, id)),
      fromItem,
    ),
    total,
    nextCursor,
  };
};

/** Reminders owed by `now`, across tenants, from the sparse due index. */
export const dueReminders = async (now: Date, limit: number): Promise<{ tenant: Tenant; id: string }[]> => {
  const { items } = await queryPage({ index: 'gsi1', pk: TASK_DUE_INDEX, skUpTo: `${now.toISOString()}#~` }, { limit });
  return items.map((i) => fromIndexSk(i.gsi1sk as string));
};

/**
 * Writes `crm.task.due` for a task whose reminder is owed, and records that it was: the version check
 * makes it happen once however many timer runs overlap; a task changed meanwhile is decided afresh.
 */
export const remindDue = async (tenant: Tenant, id: string, now: Date): Promise<boolean> => {
  let reminded = false;
  await mutateTask(
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
