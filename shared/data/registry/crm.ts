import * as z from 'zod';
import { activity as activityView, task as taskView } from '../../views/crm';
import { declare, entity } from './define';

export const lead = entity({
  name: 'Lead',
  itemTypes: ['LEAD', 'STAGE_STAY'],
  personal: ['title', 'attributes'],
  about: 'A lead (versioned), with one item per stage stay it has left in its partition (its current stay is the lead itself); its stage list is its index entry.',
  prefixes: ['LEAD', 'STAY', 'LEADLIST', 'LEADSTAGE'],
  keys: { pk: '<tenant>#LEAD#<id>', sk: 'LEAD | STAY#<n, 6 digits>', gsi1pk: '<tenant>#LEADSTAGE#<stage id>', gsi1sk: '<createdAt>#<id>' },
  patterns: [
    { read: 'lead by id', by: 'pk=<tenant>#LEAD#<id> sk=LEAD' },
    { read: 'the stays a lead has left', by: 'pk=<tenant>#LEAD#<id> sk between STAY#000001 and STAY#<stays − 1>' },
    { read: 'a stored list of leads, newest first', by: 'pk=<tenant>#LEADLIST#<list>' },
    { read: "a stage's leads, newest first", by: 'gsi1pk=<tenant>#LEADSTAGE#<stage id>', index: 'gsi1' },
    {
      read: "all leads, a pipeline's or an assignee's: their status lists merged, newest first",
      by: 'pk=<tenant>#LEADLIST#<owner:>status:<status>',
    },
  ],
  tradeOff:
    "A lead's stage list is its index entry (a move rewrites it: 2 units instead of 4 for two membership items in the transaction; every other edit of the lead rewrites it too, 1 unit), read from the index (eventually consistent) merged with the `stage:<id>` lists kept before (a lead stored before leaves its item there on its next change). The lists `all`, a pipeline's and an assignee's keep no items: they are the merge of their status lists, so a create and a delete write 3 membership items fewer.",
});

export const pipeline = entity({
  name: 'Pipeline',
  itemTypes: ['PIPELINE', 'PIPELINE_COUNTS', 'STAGE'],
  personal: [],
  about:
    "A pipeline with its stages embedded (versioned), and its stages' counts: on one item per pipeline in the workspace's counts partition, or (pipelines created before it) one item per stage.",
  prefixes: ['PIPELINE', 'PIPELINECOUNTS', 'STAGE', 'PIPELINELIST'],
  keys: { pk: '<tenant>#PIPELINE#<id> | <tenant>#PIPELINECOUNTS', sk: 'PIPELINE | STAGE#<stage id> | <pipeline id>' },
  patterns: [
    { read: 'pipeline by id', by: 'pk=<tenant>#PIPELINE#<id> sk=PIPELINE' },
    { read: "a pipeline's stage counts", by: 'pk=<tenant>#PIPELINECOUNTS sk=<pipeline id>' },
    { read: "every pipeline's moves (the workspace timeline's total)", by: 'pk=<tenant>#PIPELINECOUNTS' },
    { read: 'stage counters of a pipeline created before its counts item', by: 'pk=<tenant>#PIPELINE#<id> sk begins_with STAGE#' },
    { read: 'all pipelines, oldest first', by: 'pk=<tenant>#PIPELINELIST#all' },
  ],
  tradeOff:
    "A pipeline's stages' counts on one item (a move within it writes one item, 2 units, instead of two stage items, 4; past about 10 stages the item passes 1 KB and a move costs what it did); that item also counts its moves' `stage_change` activities, so a move writes no timeline counter, and the workspace timeline's total sums the workspace's counts items (one Query).",
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

export const activity = declare({
  name: 'Activity',
  itemTypes: ['ACTIVITY'],
  personal: ['subject', 'body'],
  about:
    "A timeline entry. The workspace's timeline is a list; a lead's and a customer's are the activity's own index entries, merged with the lists kept before them.",
  prefixes: ['ACTIVITY', 'ACTIVITYLIST', 'LEADTIMELINE', 'CUSTTIMELINE'],
  keys: {
    pk: 'WS#<tenant>#ACTIVITY#<id>',
    sk: 'ACTIVITY',
    gsi1pk: 'WS#<tenant>#LEADTIMELINE#<leadId>',
    gsi1sk: '<occurredAt>#<id>',
    gsi2pk: 'WS#<tenant>#CUSTTIMELINE#<customerId>',
    gsi2sk: '<occurredAt>#<id>',
  },
  /** The activity's own `type` is stored as `activityType` (`type` names every item's kind in the table). */
  schema: activityView.omit({ type: true }).extend({ activityType: activityView.shape.type }),
  patterns: [
    { read: 'activity by id', by: 'pk=<tenant>#ACTIVITY#<id> sk=ACTIVITY' },
    { read: "the workspace's timeline, newest first", by: 'pk=<tenant>#ACTIVITYLIST#all' },
    { read: "a lead's timeline, newest first", by: 'gsi1pk=<tenant>#LEADTIMELINE#<lead id>', index: 'gsi1' },
    { read: "a customer's timeline, newest first", by: 'gsi2pk=<tenant>#CUSTTIMELINE#<customer id>', index: 'gsi2' },
    { read: 'a timeline stored before as a list, newest first', by: 'pk=<tenant>#ACTIVITYLIST#<lead: or customer:<id>>' },
  ],
  tradeOff:
    "A lead's and a customer's timeline entries are index entries of the activity (1 write unit each) instead of membership items in the transaction (2 each); the timelines are read from the index, eventually consistent, merged with the lists kept before, which are never migrated (each read is one Query more), and counted on read.",
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
