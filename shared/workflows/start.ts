import { objectId } from '../ids';
import { buildEnvelope } from '../events/envelope';
import { outboxItem } from '../data/outbox';
import { createExecution, executionView, type StoredExecution } from '../data/workflow-executions';
import type { Tenant } from '../domain/auth/tenant';
import type { Workflow } from '../domain/workflows/definition';
import type { Execution, ExecutionTrigger } from '../domain/workflows/execution';
import { buildGraph } from '../domain/workflows/graph';
import { initialState } from '../domain/workflows/interpreter';
import type { Write } from '../data/transact';
import type { Unit } from '../data/unit';
import type { Cause } from '../events/cause';
import { enqueueStep } from './queue';

/** Events about a run, or caused by its actions, carry the run and its depth (loops stop at a depth limit). */
export const causeOf = (e: Pick<Execution, '_id' | 'workflowId' | 'depth'>): Cause => ({
  workflowId: e.workflowId,
  executionId: e._id,
  depth: e.depth,
});

/**
 * Starts a run of the workflow's current version: the execution (queued, its first step due now) and its
 * `started` event in one transaction with `guard` (a trigger's dedupe item), then the first step's
 * message. Undefined when the guard says this run was already started.
 */
export const startExecution = async (
  unit: Unit,
  tenant: Tenant,
  w: Workflow,
  trigger: ExecutionTrigger,
  opts: { depth: number; now: Date; guard?: Write },
): Promise<Execution | undefined> => {
  const e: StoredExecution = {
    tenant,
    _id: objectId(opts.now.getTime()),
    workflowId: w._id,
    workflowVersion: w.version,
    status: 'queued',
    trigger,
    depth: opts.depth,
    startedAt: opts.now.toISOString(),
    state: initialState(buildGraph(w.nodes, w.edges)),
    seq: 0,
    dueAt: opts.now.toISOString(),
  };
  const execution = executionView(e);
  const started = outboxItem(buildEnvelope('workflow.execution.started', tenant, { execution }, { now: opts.now, cause: causeOf(e) }));
  if (!(await createExecution(unit, e, [started, ...(opts.guard ? [opts.guard] : [])], true))) return undefined;
  await enqueueStep(unit, { tenant, executionId: e._id, seq: 0 }, 0);
  return execution;
};
