import { buildEnvelope } from '../events/envelope';
import { outboxItem } from '../data/outbox';
import { lostRace, retryOnConflict } from '../data/retry';
import { executionView, saveExecution, type StoredExecution } from '../data/workflow-executions';
import { ConflictError } from '../domain/errors';
import { isFinished, type Execution } from '../domain/workflows/execution';
import type { Tenant } from '../domain/auth/tenant';
import { enqueueStep } from './queue';
import { causeOf } from './start';
import { requireExecution } from './executions';
import type { Unit } from '../data/unit';

/** Writes `after` if the execution did not move meanwhile; a lost race is re-run by `retryOnConflict`. */
const save = async (unit: Unit, before: StoredExecution, after: StoredExecution, event?: 'workflow.execution.cancelled') => {
  const extra = event
    ? [outboxItem(buildEnvelope(event, after.tenant, { execution: executionView(after) }, { cause: causeOf(after) }))]
    : [];
  if (!(await saveExecution(unit, before, after, undefined, extra, false))) throw lostRace();
};

/** Stops a queued, running or waiting execution: its pending step message becomes stale. */
export const cancelExecution = (unit: Unit, tenant: Tenant, id: string, now: Date): Promise<Execution> =>
  retryOnConflict(async () => {
    const e = await requireExecution(tenant, id);
    if (isFinished(e.status)) throw new ConflictError(`The execution is already ${e.status}`, { status: e.status });
    const { dueAt: _d, ...rest } = e;
    const after: StoredExecution = { ...rest, status: 'cancelled', endedAt: now.toISOString(), seq: e.seq + 1 };
    await save(unit, e, after, 'workflow.execution.cancelled');
    return executionView(after);
  });

/**
 * Re-runs a failed execution from its failed step, as a new attempt of that step (a new idempotency key):
 * variables, outputs and enclosing containers are as they were when it failed.
 */
export const retryExecution = (unit: Unit, tenant: Tenant, id: string, now: Date): Promise<Execution> =>
  retryOnConflict(async () => {
    const e = await requireExecution(tenant, id);
    if (e.status !== 'failed' || !e.resumeState?.cursor)
      throw new ConflictError('Only a failed execution can be retried', { status: e.status });
    const { endedAt: _e, error: _r, resumeState, ...rest } = e;
    const nodeId = resumeState.cursor!.nodeId;
    const state = {
      ...resumeState,
      runs: { ...resumeState.runs, [nodeId]: (resumeState.runs[nodeId] ?? 0) + 1 },
      cursor: { ...resumeState.cursor!, delayMs: 0 },
    };
    const after: StoredExecution = { ...rest, status: 'queued', state, seq: e.seq + 1, dueAt: now.toISOString() };
    await save(unit, e, after);
    await enqueueStep(unit, { tenant, executionId: id, seq: after.seq }, 0);
    return executionView(after);
  });
