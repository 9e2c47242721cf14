import { log } from '../log';
import { dueExecutions, markMessaged } from '../data/workflow-executions';
import { enqueueStep } from './queue';
import type { Unit } from '../data/unit';

/** Steps due within this are sent now, with the rest of their wait as the message's delay. */
const LOOKAHEAD_MS = 60_000;
/** A step whose message was sent this long after it was due has lost its message (a crash between write and send). */
const LOST_AFTER_MS = 120_000;

/**
 * Every minute: sends the message of each step that has none (a wait beyond SQS's 15-minute delay, or a
 * run whose first message was lost) once it is nearly due, and re-sends the message of a step long
 * overdue. A duplicate is harmless: the worker drops a message for a step already run.
 */
export const sweepDueSteps = async (unit: Unit, now: Date, batch = 100): Promise<number> => {
  let sent = 0;
  for (const due of await dueExecutions(new Date(now.getTime() + LOOKAHEAD_MS), batch)) {
    const wait = Date.parse(due.dueAt) - now.getTime();
    const lost = due.messaged && wait < -LOST_AFTER_MS;
    if ((!due.messaged && (await markMessaged(due.tenant, due.id, due.dueAt))) || lost) {
      await enqueueStep(unit, { tenant: due.tenant, executionId: due.id, seq: due.seq }, Math.max(0, wait));
      sent++;
    }
  }
  if (sent > 0) log.info('workflow steps re-sent by the sweep', { sent });
  return sent;
};
