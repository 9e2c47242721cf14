import * as z from 'zod';
import { BRANCHES, NODE_TYPES, type NodeType } from '../domain/workflows/nodes';
import type { Workflow } from '../domain/workflows/definition';
import { CATEGORIES } from '../domain/workflows/failure';
import { EXECUTION_STATUSES, type Execution, type Step } from '../domain/workflows/execution';
import { exactly, id, time } from './common';
import { built } from '../domain/built';

const workflowNode = /* @__PURE__ */ built(() =>
  z.strictObject({
    id: z.string(),
    type: z.enum(NODE_TYPES as [NodeType, ...NodeType[]]),
    name: z.string().optional(),
    config: z.record(z.string(), z.unknown()),
  }),
);

/** How a run starts: an event in the catalog (with an optional filter on its `data`), by hand, or on a cron schedule. */
export const eventTrigger = /* @__PURE__ */ built(() =>
  z.strictObject({
    type: z.literal('event'),
    eventTypes: z.array(z.string()),
    filter: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).optional(),
  }),
);

const trigger = /* @__PURE__ */ built(() =>
  z.discriminatedUnion('type', [
    eventTrigger,
    z.strictObject({ type: z.literal('manual') }),
    z.strictObject({ type: z.literal('schedule'), cron: z.string(), timezone: z.string() }),
  ]),
);

/** A workflow definition (its nodes' configs are checked per type when saved; see the API reference). */
export const definition = /* @__PURE__ */ built(() =>
  exactly<Workflow>()(
    z.strictObject({
      _id: id,
      name: z.string(),
      description: z.string().optional(),
      active: z.boolean(),
      version: z.number().int().min(1),
      trigger,
      nodes: z.array(workflowNode),
      edges: z.array(z.strictObject({ from: z.string(), to: z.string(), branch: z.enum(BRANCHES) })),
      createdAt: time,
      updatedAt: time,
    }),
  ).meta({ id: 'Workflow' }),
);

const category = /* @__PURE__ */ built(() => z.enum([...CATEGORIES, 'other']));

export const execution = /* @__PURE__ */ built(() =>
  exactly<Execution>()(
    z.strictObject({
      _id: id,
      workflowId: id,
      workflowVersion: z.number().int().min(1),
      status: z.enum(EXECUTION_STATUSES),
      trigger: z.strictObject({
        type: z.enum(['event', 'manual', 'schedule']),
        eventId: z.string().optional(),
        payload: z.unknown().optional(),
      }),
      depth: z.number().int().min(1),
      startedAt: time,
      endedAt: time.optional(),
      error: z.strictObject({ message: z.string(), category, nodeId: z.string(), nodeType: z.string() }).optional(),
    }),
  ).meta({ id: 'WorkflowExecution' }),
);

export const step = /* @__PURE__ */ built(() =>
  exactly<Step>()(
    z.strictObject({
      nodeId: z.string(),
      nodeType: z.string(),
      attempt: z.number().int().min(1),
      status: z.enum(['succeeded', 'failed', 'skipped']),
      startedAt: time,
      endedAt: time,
      delayBeforeMs: z.number().int().min(0),
      output: z.unknown().optional(),
      error: z.strictObject({ message: z.string(), category }).optional(),
      handledBy: z.string().optional(),
    }),
  ).meta({ id: 'WorkflowStep' }),
);

/** An execution with every step attempt, in order. */
export const executionWithSteps = /* @__PURE__ */ built(() =>
  execution.extend({ steps: z.array(step) }).meta({ id: 'WorkflowExecutionWithSteps' }),
);

/** The secret on_error notifications are signed with. */
export const notificationSecret = /* @__PURE__ */ built(() =>
  z.strictObject({ secret: z.string() }).meta({ id: 'WorkflowNotificationSecret' }),
);
