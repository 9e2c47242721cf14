import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import {
  owedReminder,
  taskListCountedOnRead,
  taskListsOf,
  taskStatusParts,
  uncountedTaskList,
  type Task,
  type TaskListSource,
} from '../domain/crm/task';
import { changedLinks, linkChecks } from './references';
import { storedTenant, type Tenant } from '../domain/auth/tenant';
import { membershipWrites, readItems, readList, type ListCounting } from './lists';
import { statusTotal } from '../domain/lists';
import { queryPage, type PageRequest } from './query';
import { createItem, deleteItem, type Write } from './transact';
import { versionedUpdate } from './versioned';
import { task as taskEntity } from './registry/crm';

/**
 * Tasks (keys: registry/crm.ts), versioned. `remindedFor` is the due time whose `crm.task.due` was written.
 * While a reminder is owed (open, due time set, not yet reminded of it) the task is in the timer's sparse
 * index of reminders in due order (gsi1). Lists (taskListsOf) are <tenant>#TASKLIST#<list>.
 */

export interface StoredTask {
  task: Task;
  version: number;
  remindedFor: string | null;
}

const storedOf = (item: Record<string, unknown>): StoredTask => {
  const { version, remindedFor, ...task } = taskEntity.parse(item);
  return { task, version, remindedFor };
};

const fromItem = (item: Record<string, unknown>): Task => storedOf(item).task;

const dueIndex = (tenant: Tenant, task: Task, remindedFor: string | null) => {
  const due = owedReminder(task, remindedFor);
  return due ? taskEntity.index('gsi1', { dueAt: due, tenant, id: task._id }) : undefined;
};

/** Status lists share one counter per owner (the workspace, an assignee). */
const taskCounting: ListCounting = { uncounted: uncountedTaskList, shared: statusTotal };

export const getTask = async (tenant: Tenant, id: string): Promise<StoredTask | undefined> => {
  const { Item } = await dynamo().send(
    new GetCommand({ TableName: config().TABLE_NAME, Key: taskEntity.key({ tenant, id }), ConsistentRead: true }),
  );
  return Item && storedOf(Item);
};

/** The writes that store a new task (no reminder given yet): its item, its lists and the checks of its links. */
export const taskCreation = (tenant: Tenant, task: Task): Write[] => [
  createItem({ ...taskEntity.key({ tenant, id: task._id }), type: 'TASK', version: 1, ...task, ...dueIndex(tenant, task, null) }),
  ...membershipWrites(tenant, 'task', task._id, [], taskListsOf(task), taskCounting),
  ...linkChecks(tenant, task),
];

/**
 * The writes that store `after` over the version read, with the due time last reminded of: the due index
 * (a reminder still owed) and the lists follow it, and the links it changes are checked.
 */
export const taskUpdate = (tenant: Tenant, stored: StoredTask, after: Task, remindedFor: string | null): Write[] => {
  const before = stored.task;
  const index = dueIndex(tenant, after, remindedFor);
  return [
    versionedUpdate(taskEntity.key({ tenant, id: before._id }), stored.version, before, after, {
      set: { ...index, ...(remindedFor ? { remindedFor } : {}) },
      remove: index ? [] : ['gsi1pk', 'gsi1sk'],
    }),
    ...membershipWrites(tenant, 'task', before._id, taskListsOf(before), taskListsOf(after), taskCounting),
    ...linkChecks(tenant, changedLinks(before, after)),
  ];
};

/** The writes that delete the task as read (conditional on its version) and take it off its lists. */
export const taskDeletion = (tenant: Tenant, { task, version }: StoredTask): Write[] => [
  deleteItem(taskEntity.key({ tenant, id: task._id }), { condition: '#v = :v', names: { '#v': 'version' }, values: { ':v': version } }),
  ...membershipWrites(tenant, 'task', task._id, taskListsOf(task), [], taskCounting),
];

/** One page of a task list: newest first, or with `overdue` the open tasks due before `now`, most overdue first. */
export const tasksPage = async (tenant: Tenant, source: TaskListSource, page: PageRequest, now: Date) => {
  const { ids, total, nextCursor } = source.overdue
    ? await readList(tenant, 'task', source.list, page, { before: now.toISOString() })
    : await readList(tenant, 'task', source.list, page, {
        newestFirst: true,
        parts: taskStatusParts(source.list),
        shared: taskCounting.shared,
        countOnRead: taskListCountedOnRead(source.list),
      });
  return {
    tasks: await readItems(
      ids.map((id) => taskEntity.key({ tenant, id })),
      fromItem,
    ),
    total,
    nextCursor,
  };
};

/** Reminders owed by `now`, across tenants, from the sparse due index. */
export const dueReminders = async (now: Date, limit: number): Promise<{ tenant: Tenant; id: string }[]> => {
  const { items } = await queryPage({ index: 'gsi1', pk: taskEntity.build('gsi1pk', {}), skUpTo: `${now.toISOString()}#~` }, { limit });
  return items.map((i) => {
    const { tenant, id } = taskEntity.read('gsi1sk', i.gsi1sk);
    return { tenant: storedTenant(tenant), id };
  });
};
