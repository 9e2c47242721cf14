import { Cron } from 'croner';

/** Whether `cron` is a 5-field cron expression croner accepts. */
export const validCron = (cron: string): boolean => {
  try {
    new Cron(cron, { paused: true });
    return cron.trim().split(/\s+/).length === 5;
  } catch {
    return false;
  }
};

/** The first time after `after` that the 5-field `cron` names in `timezone` (ISO), if any. */
export const nextRun = (cron: string, timezone: string, after: Date): string | undefined =>
  new Cron(cron, { timezone, paused: true }).nextRun(after)?.toISOString();
