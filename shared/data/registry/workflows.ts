import * as z from 'zod';
import { declare, entity } from './define';

export const workflow = declare({
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
  schema: z.object({
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

export const workflowVersion = declare({
  name: 'Workflow version',
  itemTypes: ['WORKFLOW_VERSION'],
  personal: [],
  about: 'One version of a workflow, whole, as JSON text: executions run the version they started on, so versions outlive the workflow.',
  prefixes: ['VER'],
  keys: { pk: 'WS#<tenant>#WF#<id>', sk: 'VER#<version>' },
  patterns: [{ read: 'versions of a workflow', by: 'pk=<tenant>#WF#<id> sk begins_with VER#' }],
  schema: z.object({ workflow: z.string() }),
});

export const workflowTrigger = declare({
  name: 'Workflow event trigger',
  itemTypes: ['WF_TRIGGER'],
  personal: [],
  about: "An active event-triggered workflow's trigger, in one partition per tenant that the trigger function reads whole.",
  prefixes: ['WFTRIG'],
  keys: { pk: 'WS#<tenant>#WFTRIG', sk: '<id>' },
  patterns: [{ read: 'active event triggers', by: 'pk=<tenant>#WFTRIG' }],
  schema: z.object({ workflowId: z.string(), trigger: z.string() }),
});

export const notificationSecret = declare({
  name: 'Workflow notification secret',
  itemTypes: ['WF_NOTIFY_SECRET'],
  personal: [],
  about: "The workspace's secret that on_error `notify` signs with.",
  prefixes: ['WFNOTIFY'],
  keys: { pk: 'WS#<tenant>', sk: 'WFNOTIFY' },
  patterns: [{ read: 'notification secret', by: 'pk=<tenant> sk=WFNOTIFY' }],
  schema: z.object({ secret: z.string() }),
});

export const execution = entity({
  name: 'Workflow execution',
  itemTypes: ['WF_EXECUTION', 'WF_EXECUTION_INDEX', 'WF_STEP', 'WF_EFFECT'],
  personal: ['payload', 'output'],
  about: 'An execution record, its index item, its steps and its completed side effects.',
  prefixes: ['WFXS', 'X', 'WFX', 'IDX', 'STEP', 'EFFECT', 'WFXWF', 'WFXST', 'WFXWFST', 'WF_DUE', 'WFXCOUNT'],
  keys: {
    pk: '<tenant>#WFXS | <tenant>#WFX#<id>',
    sk: 'X#<id> | IDX | STEP#<n, 6 digits> | EFFECT#<key>',
    gsi1pk: '<tenant>#WFXWF#<workflow id> | <tenant>#WFXWFST#<workflow id>#<status>',
    gsi1sk: '<id>',
    gsi2pk: '<tenant>#WFXST#<status> | WF_DUE',
    gsi2sk: '<id> | <dueAt>#<tenant>#<id>',
  },
  patterns: [
    { read: 'execution by id; all executions', by: 'pk=<tenant>#WFXS sk begins_with X#' },
    { read: 'by workflow', by: 'gsi1pk=<tenant>#WFXWF#<workflow id>', index: 'gsi1' },
    { read: 'by status', by: 'gsi2pk=<tenant>#WFXST#<status>', index: 'gsi2' },
    { read: 'by workflow and status', by: 'gsi1pk=<tenant>#WFXWFST#<workflow id>#<status>', index: 'gsi1' },
    { read: 'due steps', by: 'gsi2pk=WF_DUE gsi2sk < now', index: 'gsi2' },
    { read: 'steps, in order', by: 'pk=<tenant>#WFX#<id> sk begins_with STEP#' },
    { read: 'a completed side effect', by: 'pk=<tenant>#WFX#<id> sk=EFFECT#<key>' },
    { read: 'execution count', by: 'pk=<tenant> sk begins_with WFXCOUNT#' },
  ],
});

export const eventGuard = declare({
  name: 'Workflow event guard',
  itemTypes: ['WF_GUARD'],
  personal: [],
  about: 'Starts a workflow once per event: created in the start’s transaction, so a redelivery starts nothing (TTL a week).',
  prefixes: ['WFEVT'],
  keys: { pk: 'WS#<tenant>#WFEVT#<eventId>', sk: '<workflowId>' },
  patterns: [],
  schema: z.object({}),
});

export const scheduleGuard = declare({
  name: 'Workflow schedule guard',
  itemTypes: ['WF_SCHEDULE_GUARD'],
  personal: [],
  about: 'Starts a scheduled workflow once per run it was due for, as the event guard does (TTL a week).',
  prefixes: ['WFSCHED'],
  keys: { pk: 'WS#<tenant>#WFSCHED#<workflowId>', sk: '<nextRunAt>' },
  patterns: [],
  schema: z.object({}),
});
