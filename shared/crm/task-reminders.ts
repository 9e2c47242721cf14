import { dueReminders } from '../data/tasks';
import { drainDue } from '../data/timers';
import { remindDue } from './tasks';
import type { Unit } from '../data/unit';

/**
 * Writes `crm.task.due` for each open task whose due time has come by `now`, once per due time, and answers how
 * many. Each reminder is a versioned write that also takes the task off the due index, so overlapping runs,
 * retries and a task changed meanwhile never repeat or lose one.
 */
export const remindDueTasks = (unit: Unit, now: Date): Promise<number> =>
  drainDue(
    'task reminder',
    (limit) => dueReminders(now, limit),
    ({ tenant, id }) => remindDue(unit, tenant, id, now),
  );
