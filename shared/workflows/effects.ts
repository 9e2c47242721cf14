import { config } from '../config';
import { AppError, ValidationError } from '../domain/errors';
import { answerOf } from '../http/refusals';
import type { Tenant } from '../domain/auth/tenant';
import type { StepError } from '../domain/workflows/failure';
import type { Outcome } from '../domain/workflows/interpreter';
import type { NodeConfig, NodeType, WorkflowNode } from '../domain/workflows/nodes';
import { deliveryHeaders } from '../domain/webhooks/sign';
import { withCause } from '../events/cause';
import { postMessage } from '../inbox/messages';
import { mutateConversation } from '../inbox/conversations';
import { assign } from '../domain/inbox/edits';
import { changeStatus } from '../domain/inbox/state-machine';
import type { Change, Conversation } from '../domain/inbox/conversation';
import { applyTagging } from '../tags/tagging';
import { createTask } from '../crm/tasks';
import type { Task } from '../domain/crm/task';
import type { Lead } from '../domain/crm/lead';
import { moveLeadToStage } from '../crm/leads';
import { effectRecord, getEffect, type StoredExecution } from '../data/workflow-executions';
import { notificationSecret } from './notification-secret';
import type { Write } from '../data/transact';
import { direct } from '../data/unit';
import { postWebhook } from '../outbound/https';
import { httpRequest } from './http';
import { causeOf } from './start';

/** The step being run: its idempotency key is `executionId:nodeId:attempt`. */
export interface StepContext {
  tenant: Tenant;
  execution: StoredExecution;
  node: WorkflowNode;
  attempt: number;
  key: string;
  now: Date;
}

/** An effect either returns its outcome (recorded afterwards) or records it itself, in the transaction that makes it. */
type Effect = (config: never, ctx: StepContext, record: (outcome: Outcome) => Write) => Promise<Outcome>;

const allowLoopback = () => config().WEBHOOK_ALLOW_PRIVATE_TARGETS;
const author = (ctx: StepContext) => ({ type: 'system' as const, id: ctx.execution.workflowId });

type Record_ = (outcome: Outcome) => Write;

/** Runs a service that takes extra writes for its transaction, recording the step's outcome there (a no-op change is recorded after). */
const recordedIn = async <T>(
  run: (extra: (result: T) => Write[]) => Promise<T>,
  output: (result: T) => unknown,
  record: Record_,
): Promise<Outcome> => {
  const result = await run((r) => [record({ ok: true, output: output(r) })]);
  return { ok: true, output: output(result) };
};

const message =
  (type: 'outgoing' | 'note'): Effect =>
  async (c: NodeConfig<'send_message'>, ctx, record) => {
    let outcome: Outcome | undefined;
    await postMessage(direct, ctx.tenant, c.conversationId, { type, content: c.content, author: author(ctx) }, ctx.now, (m) => {
      outcome = { ok: true, output: { messageId: m._id } };
      return [record(outcome)];
    });
    return outcome!;
  };

/** A rendered optional id or time: an empty render (a missing template path) means "not set". */
const given = (v: string | undefined) => v || undefined;

const dueAtOf = (dueAt: string | undefined) => {
  if (!given(dueAt)) return null;
  if (Number.isNaN(Date.parse(dueAt!))) throw new ValidationError([{ path: 'dueAt', message: 'Must be an ISO-8601 time' }]);
  return dueAt!;
};

const taskInput = (c: NodeConfig<'create_task'>) => ({
  title: c.title,
  description: given(c.description) ?? null,
  priority: c.priority,
  dueAt: dueAtOf(c.dueAt),
  assigneeId: given(c.assigneeId) ?? null,
  leadId: given(c.leadId) ?? null,
  customerId: given(c.customerId) ?? null,
  conversationId: given(c.conversationId) ?? null,
});

const taskOutput = (t: Task) => ({ taskId: t._id, priority: t.priority, assigneeId: t.assigneeId });

/** A conversation change, with the effect's record in the change's own transaction. */
const conversationAction =
  <C extends { conversationId: string }>(decide: (c: Conversation, config: C, now: Date) => Change): Effect =>
  async (c: C, ctx, record) => {
    let outcome: Outcome | undefined;
    await mutateConversation(
      direct,
      ctx.tenant,
      c.conversationId,
      (conv) => {
        const change = decide(conv, c, ctx.now);
        const { _id, status, assigneeId } = change.conversation;
        outcome = { ok: true, output: { conversationId: _id, status, assigneeId } };
        return { change, extra: [record(outcome)] };
      },
      ctx.now,
    );
    return outcome!;
  };

const EFFECTS: Partial<Record<NodeType, Effect>> = {
  http_request: (c: NodeConfig<'http_request'>, ctx) => httpRequest({ ...c, idempotencyKey: ctx.key, allowLoopback: allowLoopback() }),
  send_message: message('outgoing'),
  add_note: message('note'),
  assign_conversation: conversationAction((conv, c: NodeConfig<'assign_conversation'>, now) => assign(conv, c.assigneeId, now)),
  change_conversation_status: conversationAction((conv, c: NodeConfig<'change_conversation_status'>, now) =>
    changeStatus(conv, c.status, { snoozedUntil: c.snoozedUntil || undefined, now }),
  ),
  add_tags: async (c: NodeConfig<'add_tags'>, ctx) => {
    const result = await applyTagging(
      direct,
      ctx.tenant,
      { entityType: c.entityType, entityIds: [c.entityId], tagIds: c.tagIds },
      'tag',
      ctx.now,
      {
        notFound: () => new AppError('NOT_FOUND', `${c.entityType} not found`),
      },
    );
    return { ok: true, output: { tagIds: result.tagIdsAfter.get(c.entityId) } };
  },
  create_task: (c: NodeConfig<'create_task'>, ctx, record) =>
    recordedIn((extra) => createTask(direct, ctx.tenant, taskInput(c), ctx.now, extra), taskOutput, record),
  move_lead: (c: NodeConfig<'move_lead'>, ctx, record) =>
    recordedIn(
      (extra) =>
        moveLeadToStage(
          direct,
          ctx.tenant,
          c.leadId,
          { stageId: c.stageId, pipelineId: given(c.pipelineId), lostReason: given(c.lostReason) },
          ctx.now,
          extra,
        ),
      (l: Lead) => ({ leadId: l._id, pipelineId: l.pipelineId, stageId: l.stageId, status: l.status }),
      record,
    ),
};

/** An AppError (not found, validation, conflict), a refusal or a missing record is the step's error; anything else is the worker's problem and retried by the queue. */
const asOutcome = (error: unknown): Outcome => {
  const refused = answerOf(error);
  if (refused) return { ok: false, message: refused.message };
  if (error instanceof AppError) return { ok: false, message: error.message };
  throw error;
};

type Handler = (config: NodeConfig<'on_error'>, error: StepError, ctx: StepContext, record: Record_) => Promise<Outcome>;

/** `notify`: the error, POSTed and signed as webhooks are (with the workspace's notification secret) to every target. */
const notify: Handler = async (config_, error, ctx) => {
  const secret = await notificationSecret(direct, ctx.tenant);
  const body = JSON.stringify({
    workflowId: ctx.execution.workflowId,
    executionId: ctx.execution._id,
    nodeId: error.nodeId,
    nodeType: error.nodeType,
    error: { message: error.message, category: error.category },
  });
  const results = await Promise.all(
    (config_.targets ?? []).map(async (target, i) => {
      const id = `${ctx.key}:${i}`;
      const headers = deliveryHeaders(secret, body, {
        eventId: id,
        eventType: 'workflow.notification',
        deliveryId: id,
        attemptNumber: 1,
        timestamp: Math.floor(ctx.now.getTime() / 1000),
      });
      const { outcome } = await postWebhook(target.url, body, headers, { allowLoopback: allowLoopback() });
      return {
        url: target.url,
        delivered: outcome.kind === 'success',
        ...(outcome.kind === 'success' ? {} : { failureReason: outcome.failureReason }),
      };
    }),
  );
  return { ok: true, output: { action: 'notify', notified: results } };
};

/** `escalate`: an urgent task for `assigneeId`, else unassigned (the workspace's managers' queue), linked to nothing. */
const escalate: Handler = async (config_, error, ctx, record) => {
  const description = `Workflow ${ctx.execution.workflowId}, execution ${ctx.execution._id}: ${error.nodeType} node ${error.nodeId} failed: ${error.message}`;
  const title = `Workflow step failed: ${error.nodeId}`;
  const input = {
    title,
    description: description.slice(0, 5000),
    priority: 'urgent' as const,
    assigneeId: given(config_.assigneeId) ?? null,
  };
  return recordedIn(
    (extra) => createTask(direct, ctx.tenant, input, ctx.now, extra),
    (t: Task) => ({ action: 'escalate', ...taskOutput(t) }),
    record,
  );
};

const HANDLERS: Partial<Record<NodeConfig<'on_error'>['action'], Handler>> = { notify, escalate };

/**
 * Runs the node's side effect at most once per idempotency key: a recorded outcome is returned as it was
 * (a redelivered message after a crash), and the outcome is recorded before the step is. Events the
 * effect causes carry the execution's causal depth.
 */
export const runEffect = async (ctx: StepContext, rendered: unknown, handling?: StepError): Promise<Outcome> => {
  const recorded = (await getEffect(ctx.tenant, ctx.execution._id, ctx.key)) as Outcome | undefined;
  if (recorded) return recorded;
  const record = (outcome: Outcome) => effectRecord(ctx.tenant, ctx.execution._id, ctx.key, outcome);
  let selfRecorded = false;
  const recordInside = (outcome: Outcome) => {
    selfRecorded = true;
    return record(outcome);
  };
  const onError = rendered as NodeConfig<'on_error'>;
  const effect = handling
    ? () => HANDLERS[onError.action]!(onError, handling, ctx, recordInside)
    : () => (EFFECTS[ctx.node.type] as (c: unknown, x: StepContext, r: typeof record) => Promise<Outcome>)(rendered, ctx, recordInside);
  const outcome = await withCause(causeOf(ctx.execution), effect).catch(asOutcome);
  // A failed outcome was never written inside an effect's transaction (that transaction failed with it).
  if (!selfRecorded || !outcome.ok) await direct.commit([record(outcome)]);
  return outcome;
};
