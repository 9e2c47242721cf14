import { runDueSchedules } from '../../shared/workflows/triggers';
import { scheduled } from '../../shared/observability/invocation';
import { direct } from '../../shared/data/unit';

/** Every minute: starts the runs of schedule-triggered workflows whose cron time has come. */
export const handler = scheduled(async (): Promise<{ started: number }> => ({ started: await runDueSchedules(direct, new Date()) }));
