import * as z from 'zod';
import { task as taskView } from '../../views/crm';
import { declare, entity } from './define';

export const lead = entity({
  name: 'Lead',
  itemTypes: ['LEAD', 'STAGE_STAY'],
  personal: ['title', 'attributes'],
  about: 'A lead (versioned), with one item per stage stay in its partition.',
  prefixes: ['LEAD', 'STAY', 'LEADLIST'],
  keys: { pk: '<tenant>#LEAD#<id>', sk: 'LEAD | STAY#<n, 6 digits>' },
  patterns: [
    { read: 'lead by id', by: 'pk=<tenant>#LEAD#<id> sk=LEAD' },
    { read: 'stage history of a lead', by: 'pk=<tenant>#LEAD#<id> sk begins_with STAY#' },
    { read: 'a list of leads, newest first', by: 'pk=<tenant>#LEADLIST#<list>' },
  ],
});

export const pipeline = entity({
  name: 'Pipeline',
  itemTypes: ['PIPELINE', 'STAGE'],
  personal: [],
  about: 'A pipeline with its stages embedded (versioned), and one counter item per stage.',
  prefixes: ['PIPELINE', 'STAGE', 'PIPELINELIST'],
  keys: { pk: '<tenant>#PIPELINE#<id>', sk: 'PIPELINE | STAGE#<stage id>' },
  patterns: [
    { read: 'pipeline by id', by: 'pk=<tenant>#PIPELINE#<id> sk=PIPELINE' },
    { read: 'stage counters of a pipeline', by: 'pk=<tenant>#PIPELINE#<id> sk begins_with STAGE#' },
    { read: 'all pipelines, oldest first', by: 'pk=<tenant>#PIPELINELIST#all' },
  ],
});

export const task = declare({
  name: 'Task',
  itemTypes: ['TASK'],
  personal: ['title', 'description'],
  about: "A task (versioned); an unreminded due task is in the timer's sparse index.",
  prefixes: ['TASK', 'TASKDUE', 'TASKLIST'],
  keys: { pk: 'WS#<tenant>#TASK#<id>', sk: 'TASK', gsi1pk: 'TASKDUE', gsi1sk: '<dueAt>#<tenant>#<id>' },
  schema: taskView.extend({ version: z.number(), remindedFor: z.string().nullable() }),
  patterns: [
    { read: 'task by id', by: 'pk=<tenant>#TASK#<id> sk=TASK' },
    { read: 'tasks due', by: 'gsi1pk=TASKDUE gsi1sk ≤ now', index: 'gsi1' },
    { read: 'a list of tasks', by: 'pk=<tenant>#TASKLIST#<list>' },
  ],
});

export const activity = entity({
  name: 'Activity',
  itemTypes: ['ACTIVITY'],
  personal: ['subject', 'body'],
  about: 'A timeline entry; timelines are lists.',
  prefixes: ['ACTIVITY', 'ACTIVITYLIST'],
  keys: { pk: '<tenant>#ACTIVITY#<id>', sk: 'ACTIVITY' },
  patterns: [
    { read: 'activity by id', by: 'pk=<tenant>#ACTIVITY#<id> sk=ACTIVITY' },
    { read: 'a timeline, newest first', by: 'pk=<tenant>#ACTIVITYLIST#<list>' },
  ],
});

export const listMembership = entity({
  name: 'List membership',
  itemTypes: ['LIST_MEMBER'],
  personal: [],
  about: 'An entity in one of its lists (`<KIND>LIST`, declared by each entity above), sorted by its order.',
  prefixes: [],
  keys: { pk: '<tenant>#<KIND>LIST#<list>', sk: '<order>' },
  patterns: [{ read: 'a page of a list', by: 'pk=<tenant>#<KIND>LIST#<list>' }],
});
