import { log } from '../log';
import { envelopeTenant, type EventEnvelope } from '../events/envelope';
import { eventStartGuard, scheduledRunGuard } from '../data/workflow-guards';
import { dueSchedules, eventTriggers, getWorkflow, workflowSave } from '../data/workflows';
import { lostRace } from '../data/retry';
import type { Unit } from '../data/unit';
import { ConflictError } from '../domain/errors';
import { matchesFilter, nextRunAt } from '../domain/workflows/definition';
import { MAX_CAUSAL_DEPTH, type Execution } from '../domain/workflows/execution';
import { matchesAny } from '../domain/webhooks/event-patterns';
import type { Tenant } from '../domain/auth/tenant';
import { requireWorkflow } from './definitions';
import { startExecution } from './start';

/** `POST /workflows/{id}/trigger`: any manual workflow, and any active one (for testing). */
export const triggerManually = async (unit: Unit, tenant: Tenant, id: string, payload: unknown, now: Date): Promise<Execution> => {
  const { workflow } = await requireWorkflow(tenant, id);
  if (workflow.trigger.type !== 'manual' && !workflow.active) {
    throw new ConflictError(`An inactive ${workflow.trigger.type}-triggered workflow cannot be run; activate it first`);
  }
  return (await startExecution(unit, tenant, workflow, { type: 'manual', ...(payload ? { payload } : {}) }, { depth: 1, now }))!;
};

/**
 * A domain event from the bus: one run of every active workflow whose trigger matches, at most once per
 * (event, workflow) however often the event is delivered. An event a workflow caused starts runs one
 * level deeper; past MAX_CAUSAL_DEPTH it starts none, so workflows that trigger each other stop.
 */
export const onEvent = async (unit: Unit, envelope: EventEnvelope, now = new Date()): Promise<number> => {
  const t = envelopeTenant(envelope);
  const depth = (envelope.causedBy?.depth ?? 0) + 1;
  const matching = (await eventTriggers(t)).filter(
    ({ trigger }) => matchesAny(trigger.eventTypes, envelope.eventType) && matchesFilter(trigger.filter, envelope.data),
  );
  if (matching.length === 0) return 0;
  if (depth > MAX_CAUSAL_DEPTH) {
    log.warn('workflow trigger skipped: causal depth limit', {
      eventId: envelope.eventId,
      eventType: envelope.eventType,
      depth,
      causedBy: envelope.causedBy,
    });
    return 0;
  }
  let started = 0;
  for (const { workflowId } of matching) {
    const found = await getWorkflow(t, workflowId);
    if (!found?.workflow.active) continue;
    const trigger = { type: 'event' as const, eventId: envelope.eventId, payload: envelope.data };
    const run = await startExecution(unit, t, found.workflow, trigger, {
      depth,
      now,
      guard: eventStartGuard(t, envelope.eventId, workflowId, now),
    });
    if (run) started++;
  }
  return started;
};

/**
 * Starts the run of every active schedule due by `now` (once per scheduled time, whatever overlaps or
 * crashes), then moves its next run on.
 */
export const runDueSchedules = async (unit: Unit, now: Date, batch = 100): Promise<number> => {
  let started = 0;
  for (const { tenant, id } of await dueSchedules(now, batch)) {
    const s = await getWorkflow(tenant, id);
    if (!s?.nextRunAt || !s.workflow.active || Date.parse(s.nextRunAt) > now.getTime()) continue;
    const trigger = { type: 'schedule' as const, payload: { scheduledAt: s.nextRunAt } };
    if (await startExecution(unit, tenant, s.workflow, trigger, { depth: 1, now, guard: scheduledRunGuard(tenant, id, s.nextRunAt, now) }))
      started++;
    await unit
      .commit(workflowSave(tenant, s, s.workflow, await nextRunAt(s.workflow.trigger, now)), lostRace)
      .catch((error: unknown) => log.warn('schedule not advanced (changed meanwhile)', { tenant, workflowId: id, error: String(error) }));
  }
  return started;
};
