import * as z from 'zod';
import { tenantField } from '../../domain/auth/tenant';
import type { ExecutionState } from '../../domain/workflows/interpreter';
import { execution as executionView, step as stepView } from '../../views/workflows';
import { declare } from './define';
import { built } from '../../domain/built';

export const workflow = /* @__PURE__ */ declare({
  name: 'Workflow',
  itemTypes: ['WORKFLOW'],
  personal: [],
  about:
    'A workflow: its fields, and its graph and trigger as JSON text (configs hold arbitrary JSON, which DynamoDB cannot always hold as is); `rev` guards read-modify-write. An active schedule is in the due index.',
  prefixes: ['WF', 'WFS', 'WF_SCHEDULES'],
  keys: {
    pk: 'WS#<tenant>#WF#<id>',
    sk: 'WF',
    gsi1pk: 'WS#<tenant>#WFS',
    gsi1sk: '<id>',
    gsi2pk: 'WF_SCHEDULES',
    gsi2sk: '<nextRunAt>#<tenant>#<id>',
  },
  patterns: [
    { read: 'workflow by id', by: 'pk=<tenant>#WF#<id> sk=WF' },
    { read: 'workflows, newest first', by: 'gsi1pk=<tenant>#WFS', index: 'gsi1' },
    { read: 'due schedules', by: 'gsi2pk=WF_SCHEDULES gsi2sk < now', index: 'gsi2' },
  ],
  schema: () =>
    z.object({
      _id: z.string(),
      name: z.string(),
      description: z.string().optional(),
      active: z.boolean(),
      version: z.number(),
      createdAt: z.string(),
      updatedAt: z.string(),
      graph: z.string(),
      rev: z.number(),
      nextRunAt: z.string().optional(),
    }),
});

export const workflowVersion = /* @__PURE__ */ declare({
  name: 'Workflow version',
  itemTypes: ['WORKFLOW_VERSION'],
  personal: [],
  about: 'One version of a workflow, whole, as JSON text: executions run the version they started on, so versions outlive the workflow.',
  prefixes: ['VER'],
  keys: { pk: 'WS#<tenant>#WF#<id>', sk: 'VER#<version>' },
  patterns: [{ read: 'versions of a workflow', by: 'pk=<tenant>#WF#<id> sk begins_with VER#' }],
  schema: () => z.object({ workflow: z.string() }),
});

export const workflowTrigger = /* @__PURE__ */ declare({
  name: 'Workflow event trigger',
  itemTypes: ['WF_TRIGGER'],
  personal: [],
  about: "An active event-triggered workflow's trigger, in one partition per tenant that the trigger function reads whole.",
  prefixes: ['WFTRIG'],
  keys: { pk: 'WS#<tenant>#WFTRIG', sk: '<id>' },
  patterns: [{ read: 'active event triggers', by: 'pk=<tenant>#WFTRIG' }],
  schema: () => z.object({ workflowId: z.string(), trigger: z.string() }),
});

export const notificationSecret = /* @__PURE__ */ declare({
  name: 'Workflow notification secret',
  itemTypes: ['WF_NOTIFY_SECRET'],
  personal: [],
  about: "The workspace's secret that on_error `notify` signs with.",
  prefixes: ['WFNOTIFY'],
  keys: { pk: 'WS#<tenant>', sk: 'WFNOTIFY' },
  patterns: [{ read: 'notification secret', by: 'pk=<tenant> sk=WFNOTIFY' }],
  schema: () => z.object({ secret: z.string() }),
});

/**
 * Payloads, outputs and state are arbitrary JSON (a trigger's payload, an HTTP response), stored as JSON text
 * since DynamoDB cannot hold every JSON number or key: read back through the schema of what the text holds.
 */
const json = <T extends z.ZodType>(value: T) =>
  z
    .string()
    .transform((text): unknown => JSON.parse(text))
    .pipe(value);

/** The interpreter's state, kept as JSON it alone writes: read back whole once its shape is recognised. */
const interpreterState = /* @__PURE__ */ built(() =>
  z.custom<ExecutionState>(
    (v) =>
      typeof v === 'object' && v !== null && Array.isArray((v as ExecutionState).frames) && typeof (v as ExecutionState).steps === 'number',
  ),
);
const summary = /* @__PURE__ */ built(() => executionView.extend({ trigger: json(executionView.shape.trigger) }));

export const execution = /* @__PURE__ */ declare({
  name: 'Workflow execution',
  itemTypes: ['WF_EXECUTION'],
  personal: ['trigger', 'state', 'resumeState'],
  about:
    'An execution record: its summary, the interpreter’s state and the number of its next step; in the index of its workflow and in that of its status.',
  prefixes: ['WFXS', 'X', 'WFXWF', 'WFXST'],
  keys: {
    pk: 'WS#<tenant>#WFXS',
    sk: 'X#<id>',
    gsi1pk: 'WS#<tenant>#WFXWF#<workflowId>',
    gsi1sk: '<id>',
    gsi2pk: 'WS#<tenant>#WFXST#<status>',
    gsi2sk: '<id>',
  },
  patterns: [
    { read: 'execution by id; all executions', by: 'pk=<tenant>#WFXS sk begins_with X#' },
    { read: 'by workflow', by: 'gsi1pk=<tenant>#WFXWF#<workflowId>', index: 'gsi1' },
    { read: 'by status', by: 'gsi2pk=<tenant>#WFXST#<status>', index: 'gsi2' },
  ],
  schema: () =>
    summary.extend({
      tenant: tenantField,
      state: json(interpreterState),
      seq: z.number(),
      dueAt: z.string().optional(),
      resumeState: json(interpreterState).optional(),
    }),
});

export const executionIndex = /* @__PURE__ */ declare({
  name: 'Workflow execution index item',
  itemTypes: ['WF_EXECUTION_INDEX'],
  personal: ['trigger'],
  about:
    'An execution’s summary in its own partition, in the index of its workflow and status; while it is unfinished and a step is due, also in the due index (with the step number, and whether a queue message carries it).',
  prefixes: ['WFX', 'IDX', 'WFXWFST', 'WF_DUE'],
  keys: {
    pk: 'WS#<tenant>#WFX#<id>',
    sk: 'IDX',
    gsi1pk: 'WS#<tenant>#WFXWFST#<workflowId>#<status>',
    gsi1sk: '<id>',
    gsi2pk: 'WF_DUE',
    gsi2sk: '<dueAt>#<tenant>#<id>',
  },
  patterns: [
    { read: 'by workflow and status', by: 'gsi1pk=<tenant>#WFXWFST#<workflowId>#<status>', index: 'gsi1' },
    { read: 'due steps', by: 'gsi2pk=WF_DUE gsi2sk < now', index: 'gsi2' },
  ],
  schema: () => summary.extend({ seq: z.number().optional(), messaged: z.boolean().default(false) }),
});

export const executionStep = /* @__PURE__ */ declare({
  name: 'Workflow execution step',
  itemTypes: ['WF_STEP'],
  personal: ['output'],
  about: 'One step attempt of an execution, written with the record’s move past it; numbered with 6 digits, so they read in order.',
  prefixes: ['STEP'],
  keys: { pk: 'WS#<tenant>#WFX#<id>', sk: 'STEP#<n>' },
  patterns: [{ read: 'steps, in order', by: 'pk=<tenant>#WFX#<id> sk begins_with STEP#' }],
  schema: () => stepView.extend({ output: json(z.unknown()).optional() }),
});

export const executionEffect = /* @__PURE__ */ declare({
  name: 'Workflow side effect',
  itemTypes: ['WF_EFFECT'],
  personal: ['outcome'],
  about:
    'A completed side effect of an execution by its idempotency key (`<executionId>:<nodeId>:<attempt>`): a retried step reads it instead of acting twice.',
  prefixes: ['EFFECT'],
  keys: { pk: 'WS#<tenant>#WFX#<id>', sk: 'EFFECT#<key>' },
  patterns: [{ read: 'a completed side effect', by: 'pk=<tenant>#WFX#<id> sk=EFFECT#<key>' }],
  schema: () => z.object({ outcome: json(z.unknown()).optional() }),
});

export const executionCount = /* @__PURE__ */ declare({
  name: 'Workflow execution count',
  itemTypes: [],
  personal: [],
  about:
    'The exact totals of a tenant’s executions, in 4 shards: all, per workflow, per status, per workflow and status, one attribute each.',
  prefixes: ['WFXCOUNT'],
  keys: { pk: 'WS#<tenant>', sk: 'WFXCOUNT#<shard>' },
  patterns: [{ read: 'execution count', by: 'pk=<tenant> sk begins_with WFXCOUNT#' }],
  schema: () => z.object({}),
});

export const eventGuard = /* @__PURE__ */ declare({
  name: 'Workflow event guard',
  itemTypes: ['WF_GUARD'],
  personal: [],
  about: 'Starts a workflow once per event: created in the start’s transaction, so a redelivery starts nothing (TTL a week).',
  prefixes: ['WFEVT'],
  keys: { pk: 'WS#<tenant>#WFEVT#<eventId>', sk: '<workflowId>' },
  patterns: [],
  schema: () => z.object({}),
});

export const scheduleGuard = /* @__PURE__ */ declare({
  name: 'Workflow schedule guard',
  itemTypes: ['WF_SCHEDULE_GUARD'],
  personal: [],
  about: 'Starts a scheduled workflow once per run it was due for, as the event guard does (TTL a week).',
  prefixes: ['WFSCHED'],
  keys: { pk: 'WS#<tenant>#WFSCHED#<workflowId>', sk: '<nextRunAt>' },
  patterns: [],
  schema: () => z.object({}),
});
