import { entity } from './define';

export const workflow = entity({
  name: 'Workflow',
  itemTypes: ['WORKFLOW', 'WORKFLOW_VERSION', 'WF_TRIGGER', 'WF_NOTIFY_SECRET'],
  personal: [],
  about: "A workflow and its versions' graphs; active ones are in the trigger partition or the schedule index.",
  prefixes: ['WF', 'VER', 'WFS', 'WFTRIG', 'WF_SCHEDULES', 'WFNOTIFY'],
  keys: {
    pk: '<tenant>#WF#<id> | <tenant>#WFTRIG',
    sk: 'WF | VER#<version, 6 digits> | <id>',
    gsi1pk: '<tenant>#WFS',
    gsi1sk: '<id>',
    gsi2pk: 'WF_SCHEDULES',
    gsi2sk: '<nextRunAt>#<tenant>#<id>',
  },
  patterns: [
    { read: 'workflow by id', by: 'pk=<tenant>#WF#<id> sk=WF' },
    { read: 'versions of a workflow', by: 'pk=<tenant>#WF#<id> sk begins_with VER#' },
    { read: 'workflows, newest first', by: 'gsi1pk=<tenant>#WFS', index: 'gsi1' },
    { read: 'active event triggers', by: 'pk=<tenant>#WFTRIG' },
    { read: 'due schedules', by: 'gsi2pk=WF_SCHEDULES gsi2sk < now', index: 'gsi2' },
    { read: 'notification secret', by: 'pk=<tenant> sk=WFNOTIFY' },
  ],
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

export const triggerGuard = entity({
  name: 'Workflow trigger guard',
  itemTypes: ['WF_GUARD'],
  personal: [],
  about: 'Starts one execution per event or per scheduled run (TTL).',
  prefixes: ['WFEVT', 'WFSCHED'],
  keys: { pk: '<tenant>#WFEVT#<event id> | <tenant>#WFSCHED#<workflow id>', sk: '<workflow id> | <nextRunAt>' },
  patterns: [],
});
