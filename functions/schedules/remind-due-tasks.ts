import { dueReminders, remindDue } from '../../shared/data/tasks';
import { log } from '../../shared/log';

const BATCH = 100;

/**
 * Every minute: writes `crm.task.due` for each open task whose due time has come, once per due time.
 * Each reminder is a versioned write that also takes the task off the due index, so overlapping runs,
 * retries and a task changed meanwhile never repeat or lose one.
 */
export const handler = async (): Promise<{ reminded: number }> => {
  const now = new Date();
  let reminded = 0;
  for (;;) {
    const due = await dueReminders(now, BATCH);
    let batch = 0;
    for (const { tenant, id } of due) {
      const sent = await remindDue(tenant, id, now).catch((error: unknown) => {
        log.error('task reminder failed', { tenant, taskId: id, error: String(error) });
        return false;
      });
      if (sent) batch++;
    }
    reminded += batch;
    // A short page is the last one; a page where nothing was sent would only repeat itself.
    if (due.length < BATCH || batch === 0) break;
  }
  if (reminded > 0) log.info('reminded due tasks', { reminded });
  return { reminded };
};
