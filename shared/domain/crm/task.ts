import * as z from 'zod';
import { ConflictError, ValidationError } from '../errors';
import { byCreation, placedAt, UNASSIGNED, type Membership } from '../lists';
import { built } from '../built';

const TASK_PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;
export const TaskPriority = /* @__PURE__ */ built(() => z.enum(TASK_PRIORITIES));
export type TaskPriority = z.infer<typeof TaskPriority>;
export const TaskStatus = /* @__PURE__ */ built(() => z.enum(['open', 'completed']));
export type TaskStatus = z.infer<typeof TaskStatus>;

export interface Task {
  _id: string;
  title: string;
  description: string | null;
  status: TaskStatus;
  priority: TaskPriority;
  dueAt: string | null;
  assigneeId: string | null;
  leadId: string | null;
  customerId: string | null;
  conversationId: string | null;
  completedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

type TaskEvent = 'created' | 'updated' | 'completed' | 'deleted' | 'due';

export interface TaskChange {
  task: Task;
  events: { name: TaskEvent; fields: (keyof Task)[] }[];
}

export interface TaskFields {
  title?: string;
  description?: string | null;
  priority?: TaskPriority;
  dueAt?: string | null;
  assigneeId?: string | null;
  leadId?: string | null;
  customerId?: string | null;
  conversationId?: string | null;
}

/** Times are stored as ISO-8601 UTC with milliseconds, so they sort as strings (the due index relies on it). */
const utc = (time: string | null | undefined) => (time ? new Date(time).toISOString() : time);

export const newTask = (input: TaskFields & { title: string }, _id: string, now: Date): Task => ({
  _id,
  title: input.title,
  description: input.description ?? null,
  status: 'open',
  priority: input.priority ?? 'normal',
  dueAt: utc(input.dueAt) ?? null,
  assigneeId: input.assigneeId ?? null,
  leadId: input.leadId ?? null,
  customerId: input.customerId ?? null,
  conversationId: input.conversationId ?? null,
  completedAt: null,
  createdAt: now.toISOString(),
  updatedAt: now.toISOString(),
});

/** A PATCH: the changed fields in one `updated` event, or nothing. A completed task can no longer change (409). */
export const editTask = (task: Task, patch: TaskFields, now: Date): TaskChange => {
  const after: Task = { ...task, ...patch, ...(patch.dueAt !== undefined ? { dueAt: utc(patch.dueAt) ?? null } : {}) };
  const fields = (Object.keys(patch) as (keyof TaskFields)[]).filter((k) => after[k] !== task[k]);
  if (fields.length === 0) return { task, events: [] };
  if (task.status === 'completed') throw new ConflictError('A completed task cannot change', { status: task.status });
  return { task: { ...after, updatedAt: now.toISOString() }, events: [{ name: 'updated', fields }] };
};

export const completeTask = (task: Task, now: Date): TaskChange => {
  if (task.status === 'completed') throw new ConflictError('Task is already completed', { status: task.status });
  return {
    task: { ...task, status: 'completed', completedAt: now.toISOString(), updatedAt: now.toISOString() },
    events: [{ name: 'completed', fields: ['status', 'completedAt'] }],
  };
};

/**
 * The due time whose reminder is still owed: an open task with a due time it has not yet been reminded of.
 * `remindedFor` is the due time the last reminder was for, so moving `dueAt` arms a new reminder and
 * nothing else ever repeats one.
 */
export const owedReminder = (task: Pick<Task, 'status' | 'dueAt'>, remindedFor: string | null): string | undefined =>
  task.status === 'open' && task.dueAt && task.dueAt !== remindedFor ? task.dueAt : undefined;

export const isDue = (task: Pick<Task, 'status' | 'dueAt'>, remindedFor: string | null, now: Date): boolean => {
  const due = owedReminder(task, remindedFor);
  return due !== undefined && Date.parse(due) <= now.getTime();
};

/** Lists a task belongs to; `due:*` lists hold open tasks with a due time, ordered by it, for the overdue filter. */
export const taskListsOf = (t: Task): Membership[] => {
  const assignee = t.assigneeId ?? UNASSIGNED;
  const created = [
    'all',
    `status:${t.status}`,
    `assignee:${assignee}`,
    `assignee:${assignee}:status:${t.status}`,
    ...(t.leadId ? [`lead:${t.leadId}`] : []),
  ];
  const due = t.status === 'open' && t.dueAt ? placedAt(['due', `due:assignee:${assignee}`], t.dueAt, t._id) : [];
  return [...byCreation(created, t), ...due];
};

/**
 * The lists that are the union of one list per status (a task has one status at a time): `all` and an
 * assignee's. Their total is the sum of those lists' counters, so they keep no counter of their own.
 */
export const taskStatusParts = (list: string): string[] | undefined => {
  if (list === 'all') return TaskStatus.options.map((s) => `status:${s}`);
  const assignee = /^assignee:([^:]+)$/.exec(list)?.[1];
  return assignee ? TaskStatus.options.map((s) => `assignee:${assignee}:status:${s}`) : undefined;
};

/** A lead's tasks, few next to the workspace's: counted when read, which spares a counter write on each of their changes. */
export const taskListCountedOnRead = (list: string): boolean => list.startsWith('lead:');

/**
 * Lists that keep no counter: those with status parts, the due lists (an overdue total counts the members due
 * so far) and those counted on read.
 */
export const uncountedTaskList = (list: string): boolean =>
  taskStatusParts(list) !== undefined || list === 'due' || list.startsWith('due:') || taskListCountedOnRead(list);

export interface TaskFilters {
  status?: TaskStatus;
  assigneeId?: string;
  leadId?: string;
  /** `true`: open tasks whose due time has passed, most overdue first. */
  overdue?: boolean;
}

export type TaskListSource = { list: string; overdue: boolean };

/** The list a filter combination reads: assignee combines with status or overdue; anything else stands alone (422 otherwise). */
export const taskListSource = (f: TaskFilters): TaskListSource => {
  const given = (['status', 'assigneeId', 'leadId', 'overdue'] as const).filter((k) => f[k] !== undefined);
  const pair = given.length === 2 && given.includes('assigneeId') && (given.includes('status') || given.includes('overdue'));
  if (given.length > 1 && !pair) {
    const message = 'Filters cannot be combined, except assigneeId with status or overdue';
    throw new ValidationError(given.slice(1).map((path) => ({ path, message })));
  }
  if (f.overdue === true) return { list: f.assigneeId ? `due:assignee:${f.assigneeId}` : 'due', overdue: true };
  if (f.overdue === false) throw new ValidationError([{ path: 'overdue', message: 'Only overdue=true is a filter' }]);
  if (f.assigneeId) return { list: f.status ? `assignee:${f.assigneeId}:status:${f.status}` : `assignee:${f.assigneeId}`, overdue: false };
  if (f.status) return { list: `status:${f.status}`, overdue: false };
  if (f.leadId) return { list: `lead:${f.leadId}`, overdue: false };
  return { list: 'all', overdue: false };
};
