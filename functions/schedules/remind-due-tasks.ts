import { remindDueTasks } from '../../shared/crm/task-reminders';
import { scheduled } from '../../shared/observability/invocation';
import { direct } from '../../shared/data/unit';

/** Every minute: writes `crm.task.due` for each open task whose due time has come, once per due time. */
export const handler = scheduled(async (): Promise<{ reminded: number }> => ({ reminded: await remindDueTasks(direct, new Date()) }));
