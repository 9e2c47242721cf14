import { ACK, type Verdict } from '../domain/verdict';
import { log } from '../log';
import { metric } from '../observability/metrics';
import { buildEnvelope } from '../events/envelope';
import { outboxItem } from '../data/outbox';
import { getVersion } from '../data/workflows';
import { executionView, getExecution, saveExecution, type StoredExecution } from '../data/workflow-executions';
import { errorOf, isFinished, type ExecutionStatus, type Step } from '../domain/workflows/execution';
import { buildGraph } from '../domain/workflows/graph';
import { advance, attemptOf, scopeOf, type Outcome, type Transition } from '../domain/workflows/interpreter';
import { runPure } from '../domain/workflows/pure-nodes';
import { render } from '../domain/workflows/template';
import type { Write } from '../data/transact';
import { direct } from '../data/unit';
import { runEffect } from './effects';
import { enqueueStep, fitsInDelay, type StepMessage } from './queue';
import { causeOf } from './start';

/** An execution's variables and outputs live in one item (400 KB with the rest of the record and its copy for retries). */
const MAX_STATE_BYTES = 150_000;

/** A step whose result would outgrow the record fails the execution instead (the record stays as it was). */
const withinSize = (t: Transition, before: StoredExecution, node: { id: string; type: string }): Transition => {
  if (Buffer.byteLength(JSON.stringify(t.state)) <= MAX_STATE_BYTES) return t;
  const error = {
    message: `Execution state over ${MAX_STATE_BYTES / 1000} KB: keep outputs and variables smaller`,
    category: 'other' as const,
    nodeId: node.id,
    nodeType: node.type,
  };
  return { state: before.state, intent: { kind: 'end', status: 'failed', error }, error };
};

/** A message that arrives this much before its step is due is deferred again. */
const EARLY_MS = 50;

const statusAfter = (t: Transition): ExecutionStatus =>
  t.intent.kind === 'end' ? t.intent.status : t.intent.cursor.delayMs > 0 ? 'waiting' : 'running';

/** The execution after a step: its new state, status, next due time and, once failed, the state to retry from. */
const nextRecord = (e: StoredExecution, t: Transition, at: Date): StoredExecution => {
  const status = statusAfter(t);
  const { dueAt: _d, error: _e, ...rest } = e;
  const ended = t.intent.kind === 'end';
  return {
    ...rest,
    status,
    state: t.state,
    seq: e.seq + 1,
    ...(t.intent.kind === 'run' ? { dueAt: new Date(at.getTime() + t.intent.cursor.delayMs).toISOString() } : {}),
    ...(ended ? { endedAt: at.toISOString() } : {}),
    ...(t.intent.kind === 'end' && t.intent.error && status === 'failed' ? { error: errorOf(t.intent.error), resumeState: e.state } : {}),
  };
};

const events = (before: StoredExecution, after: StoredExecution, step: Step, at: Date): Write[] => {
  const t = after.tenant;
  const execution = executionView(after);
  const out: Write[] = [];
  if (step.status === 'failed')
    out.push(outboxItem(buildEnvelope('workflow.step.failed', t, { step, execution }, { now: at, cause: causeOf(after) })));
  if (after.status !== before.status && isFinished(after.status)) {
    const type = after.status === 'failed' ? 'workflow.execution.failed' : 'workflow.execution.completed';
    out.push(outboxItem(buildEnvelope(type, t, { execution }, { now: new Date(at.getTime() + 1), cause: causeOf(after) })));
  }
  return out;
};

/**
 * Runs the step a message names, once: a stale message (finished execution, another step number) is
 * dropped, an early one deferred. The step's record, the execution's next state and its events are
 * written in one transaction; the next step's message goes out after it (a lost one is re-sent by the
 * due-time sweep, a duplicate is stale).
 */
export const runStep = async (m: StepMessage): Promise<Verdict> => {
  const e = await getExecution(m.tenant, m.executionId);
  if (!e) {
    // A step message is sent after its execution is committed: one that names none is of an execution a
    // customer erasure deleted (docs/guide/data-rights.md), foreign, or a bug.
    log.warn('workflow step message names no execution; dropped');
    return ACK;
  }
  if (isFinished(e.status) || e.seq !== m.seq || !e.state.cursor) return ACK;
  const early = e.dueAt ? Date.parse(e.dueAt) - Date.now() : 0;
  if (early > EARLY_MS) return { ack: false, delayMs: early };

  const w = await getVersion(e.tenant, e.workflowId, e.workflowVersion);
  if (!w) throw new Error(`workflow ${e.workflowId} version ${e.workflowVersion} is missing`);
  const graph = buildGraph(w.nodes, w.edges);
  const cursor = e.state.cursor;
  const node = graph.node(cursor.nodeId);
  const attempt = attemptOf(e.state);
  const started = new Date();
  const rendered = render(node.config, scopeOf(graph, e.state, e.trigger.payload ?? {}));
  const ctx = { tenant: e.tenant, execution: e, node, attempt, key: `${e._id}:${node.id}:${attempt}`, now: started };
  // An on_error node acting on an error (notify, escalate) is an effect; other nodes are pure or effects by type.
  const outcome: Outcome = (!cursor.handling && runPure(node, rendered)) || (await runEffect(ctx, rendered, cursor.handling));
  const transition = withinSize(advance(graph, e.state, outcome), e, node);
  const ended = new Date();
  const step: Step = {
    nodeId: node.id,
    nodeType: node.type,
    attempt,
    status: outcome.ok ? 'succeeded' : 'failed',
    startedAt: started.toISOString(),
    endedAt: ended.toISOString(),
    delayBeforeMs: cursor.delayMs,
    ...(outcome.ok && outcome.output !== undefined ? { output: outcome.output } : {}),
    ...(transition.error ? { error: { message: transition.error.message, category: transition.error.category } } : {}),
    ...(transition.handledBy ? { handledBy: transition.handledBy } : {}),
  };
  const after = nextRecord(e, transition, ended);
  const delayMs = transition.intent.kind === 'run' ? transition.intent.cursor.delayMs : 0;
  const messaged = transition.intent.kind === 'run' && fitsInDelay(delayMs);
  if (!(await saveExecution(direct, e, after, step, events(e, after, step, ended), messaged))) {
    log.info('workflow step already recorded');
    return ACK;
  }
  log.info('workflow step', { nodeId: node.id, nodeType: node.type, attempt, status: step.status, errorCategory: step.error?.category });
  metric.workflowStep(step.status);
  if (messaged) await enqueueStep(direct, { tenant: e.tenant, executionId: e._id, seq: after.seq }, delayMs);
  return ACK;
};
