import type { ScheduleSpec } from '../../functions/wiring/types';
import { busEvent } from './event-router';
import { invoke } from './lambda';

/**
 * Stands in for EventBridge Scheduler rate schedules: invokes each target every `everyMinutes`, or every
 * `everySeconds` when given (a local run that should not wait a minute for a timer's work).
 */
export const startSchedules = (schedules: readonly ScheduleSpec[], everySeconds?: number): (() => void) => {
  const timers = schedules.map((s) =>
    setInterval(
      () => {
        invoke(s.target, { kind: 'schedule' }, busEvent('aws.scheduler', 'Scheduled Event', { schedule: s.name })).catch((error: unknown) =>
          process.stderr.write(
            `${JSON.stringify({ level: 'error', msg: 'scheduled job failed', schedule: s.name, error: String(error) })}\n`,
          ),
        );
      },
      everySeconds ? everySeconds * 1000 : s.everyMinutes * 60_000,
    ),
  );
  return () => timers.forEach(clearInterval);
};
