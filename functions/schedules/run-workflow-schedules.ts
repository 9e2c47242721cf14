import { runDueSchedules } from '../../shared/workflows/triggers';

/** Every minute: starts the runs of schedule-triggered workflows whose cron time has come. */
export const handler = async (): Promise<{ started: number }> => ({ started: await runDueSchedules(new Date()) });
