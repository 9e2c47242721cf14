import * as z from 'zod';
import { StageKind } from '../../domain/crm/pipeline';
import { activity as activityView, lead as leadView, pipeline as pipelineView, task as taskView } from '../../views/crm';
import { declare } from './define';
import { built } from '../../domain/built';

export const lead = /* @__PURE__ */ declare({
  name: 'Lead',
  itemTypes: ['LEAD'],
  personal: ['title', 'attributes'],
  about: 'A lead (versioned; `stays` counts its stage stays, the current one included); its stage list is its index entry.',
  prefixes: ['LEAD', 'LEADLIST', 'LEADSTAGE'],
  keys: { pk: 'WS#<tenant>#LEAD#<id>', sk: 'LEAD', gsi1pk: 'WS#<tenant>#LEADSTAGE#<stageId>', gsi1sk: '<createdAt>#<id>' },
  /** Tag ids are a String Set on the item (read into the array by the repository). */
  schema: () => leadView.extend({ version: z.number(), stays: z.number() }),
  patterns: [
    { read: 'lead by id', by: 'pk=<tenant>#LEAD#<id> sk=LEAD' },
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

export const stageStay = /* @__PURE__ */ declare({
  name: 'Stage stay',
  itemTypes: ['STAGE_STAY'],
  personal: [],
  about:
    "A stage a lead has left, in the lead's partition (`n` = 1, 2, … zero-padded, oldest first); the current stay is the lead itself. Its end is the next stay's start (stays written before 2026-11 may hold their own `exitedAt`).",
  prefixes: ['STAY'],
  keys: { pk: 'WS#<tenant>#LEAD#<leadId>', sk: 'STAY#<n>' },
  schema: () =>
    z.object({ pipelineId: z.string(), stageId: z.string(), enteredAt: z.string(), exitedAt: z.string().nullable().optional() }),
  patterns: [{ read: 'the stays a lead has left', by: 'pk=<tenant>#LEAD#<id> sk between STAY#000001 and STAY#<stays − 1>' }],
  tradeOff:
    "A move writes the stay it leaves on its own, before its transaction (1 unit instead of 2 in it; a create writes none): the item is the same whoever writes it, and one at or past the lead's `stays` (a move that never committed) is not read.",
});

export const pipeline = /* @__PURE__ */ declare({
  name: 'Pipeline',
  itemTypes: ['PIPELINE'],
  personal: [],
  about: 'A pipeline with its stages embedded (versioned); `countsItem` when its stage counts are on its counts item.',
  prefixes: ['PIPELINE', 'PIPELINELIST'],
  keys: { pk: 'WS#<tenant>#PIPELINE#<id>', sk: 'PIPELINE' },
  schema: () => pipelineView.extend({ version: z.number(), countsItem: z.boolean().optional() }),
  patterns: [
    { read: 'pipeline by id', by: 'pk=<tenant>#PIPELINE#<id> sk=PIPELINE' },
    { read: 'all pipelines, oldest first', by: 'pk=<tenant>#PIPELINELIST#all' },
  ],
});

/** A stage's attributes on a counts item: its kind, its lead count, its summed values per currency. */
const stageCountsAttribute = /* @__PURE__ */ built(() => z.union([StageKind, z.number(), z.record(z.string(), z.number())]));

export const pipelineCounts = /* @__PURE__ */ declare({
  name: 'Pipeline stage counts',
  itemTypes: ['PIPELINE_COUNTS'],
  personal: [],
  about:
    "A pipeline's stages' live counts, one item per pipeline in the workspace's counts partition: per stage `k:<stage id>` (its kind), `n:<stage id>` (its leads) and `a:<stage id>` (currency → summed values), and `moves`, the `stage_change` activities of moves into it.",
  prefixes: ['PIPELINECOUNTS'],
  keys: { pk: 'WS#<tenant>#PIPELINECOUNTS', sk: '<pipelineId>' },
  schema: () => z.object({ moves: z.number().default(0), stages: z.record(z.string(), stageCountsAttribute) }),
  patterns: [
    { read: "a pipeline's stage counts", by: 'pk=<tenant>#PIPELINECOUNTS sk=<pipeline id>' },
    { read: "every pipeline's moves (the workspace timeline's total)", by: 'pk=<tenant>#PIPELINECOUNTS' },
  ],
  tradeOff:
    "A pipeline's stages' counts on one item (a move within it writes one item, 2 units, instead of two stage items, 4; past about 10 stages the item passes 1 KB and a move costs what it did); that item also counts its moves' `stage_change` activities, so a move writes no timeline counter, and the workspace timeline's total sums the workspace's counts items (one Query).",
});

export const stageCounts = /* @__PURE__ */ declare({
  name: 'Stage counts (stored before)',
  itemTypes: ['STAGE'],
  personal: [],
  about: "A stage's live counts and kind, one item per stage: the layout of pipelines created before their counts item, which keep it.",
  prefixes: ['STAGE'],
  keys: { pk: 'WS#<tenant>#PIPELINE#<pipelineId>', sk: 'STAGE#<stageId>' },
  schema: () => z.object({ kind: StageKind, n: z.number().default(0), amounts: z.record(z.string(), z.number()) }),
  patterns: [{ read: 'stage counts of a pipeline created before its counts item', by: 'pk=<tenant>#PIPELINE#<id> sk begins_with STAGE#' }],
});

export const task = /* @__PURE__ */ declare({
  name: 'Task',
  itemTypes: ['TASK'],
  personal: ['title', 'description'],
  about: "A task (versioned); an unreminded due task is in the timer's sparse index.",
  prefixes: ['TASK', 'TASKDUE', 'TASKLIST'],
  keys: { pk: 'WS#<tenant>#TASK#<id>', sk: 'TASK', gsi1pk: 'TASKDUE', gsi1sk: '<dueAt>#<tenant>#<id>' },
  schema: () => taskView.extend({ version: z.number(), remindedFor: z.string().nullable() }),
  patterns: [
    { read: 'task by id', by: 'pk=<tenant>#TASK#<id> sk=TASK' },
    { read: 'tasks due', by: 'gsi1pk=TASKDUE gsi1sk ≤ now', index: 'gsi1' },
    { read: 'a list of tasks', by: 'pk=<tenant>#TASKLIST#<list>' },
  ],
});

export const activity = /* @__PURE__ */ declare({
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
  schema: () => activityView.omit({ type: true }).extend({ activityType: activityView.shape.type }),
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

export const listMembership = /* @__PURE__ */ declare({
  name: 'List membership',
  itemTypes: ['LIST_MEMBER'],
  personal: [],
  about: 'An entity in one of its lists (`<KIND>LIST`, declared by each entity above), sorted by its place: a time, then its id.',
  prefixes: [],
  keys: { pk: 'WS#<tenant>#<listPrefix>#<list>', sk: '<at>#<id>' },
  schema: () => z.object({ entityId: z.string() }),
  patterns: [{ read: 'a page of a list', by: 'pk=<tenant>#<KIND>LIST#<list>' }],
});
