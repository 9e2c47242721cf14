import { dueReminders, remindDue } from '../../shared/data/tasks';
import { drainDue } from '../../shared/data/timers';
import { scheduled } from '../../shared/observability/invocation';

/**
 * Every minute: writes `crm.task.due` for each open task whose due time has come, once per due time.
 * Each reminder is a versioned write that also takes the task off the due index, so overlapping runs,
 * retries and a task changed meanwhile never repeat or lose one.
 */
export const handler = scheduled(async (): Promise<{ reminded: number }> => {
  const now = new Date();
  const reminded = await drainDue(
    'task reminder',
    (limit) => dueReminders(now, limit),
    ({ tenant, id }) => remindDue(tenant, id, now),
  );
  return { reminded };
});
