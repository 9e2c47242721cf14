import * as z from 'zod';
import { freeFormMap, type FreeFormLimits } from '../free-form';
import { EdgeInput, NodeInput, type Edge, type WorkflowNode } from './nodes';
import { graphProblems } from './graph';
import { isTimeZone } from '../auth/workspace';
import { built } from '../built';

const MAX_NODES = 100;
const MAX_EDGES = 200;

/** A filter's keys are dot paths of up to 8 segments of 64; its values are scalars. */
const FILTER_LIMITS: FreeFormLimits = { maxEntries: 20, maxKeyLength: 8 * 65, maxBytes: 32 * 1024, maxDepth: 1 };
const FilterPath = /* @__PURE__ */ built(() =>
  z.string().regex(/^[A-Za-z0-9_-]{1,64}(\.[A-Za-z0-9_-]{1,64}){0,7}$/, 'Must be a dot path such as conversation.priority'),
);

/**
 * `isPattern` checks event names against the catalog, `isCron` a schedule's cron expression (`./cron`, with
 * croner); they are passed in so that this module loads neither: croner is only imported by
 * `nextRunAt`, at its first use.
 */
type Check = (text: string) => boolean;

const triggerSchema = (isPattern: Check, isCron: Check) =>
  z.discriminatedUnion('type', [
    z.strictObject({
      type: z.literal('event'),
      eventTypes: z.array(z.string().max(100).refine(isPattern, 'Unknown event type')).min(1, 'Must list at least one event type').max(50),
      filter: freeFormMap(FilterPath, z.union([z.string().max(1000), z.number(), z.boolean(), z.null()]), FILTER_LIMITS).optional(),
    }),
    z.strictObject({ type: z.literal('manual') }),
    z.strictObject({
      type: z.literal('schedule'),
      cron: z.string().max(200).refine(isCron, 'Must be a 5-field cron expression'),
      timezone: z.string().max(100).refine(isTimeZone, 'Must be an IANA time zone'),
    }),
  ]);
export type Trigger = z.output<ReturnType<typeof triggerSchema>>;

const graphRefinement = (def: { nodes?: z.output<typeof NodeInput>[]; edges?: Edge[] }, ctx: z.RefinementCtx) => {
  if (!def.nodes || !def.edges) return;
  for (const problem of graphProblems(def.nodes, def.edges)) ctx.addIssue({ code: 'custom', path: problem.path, message: problem.message });
};

const fields = (isPattern: Check, isCron: Check) => ({
  name: z.string().trim().min(1, 'Must not be empty').max(200),
  description: z.string().max(2000).optional(),
  trigger: triggerSchema(isPattern, isCron),
  nodes: z.array(NodeInput).min(1, 'Must have at least one node').max(MAX_NODES, `At most ${MAX_NODES} nodes`),
  edges: z.array(EdgeInput).max(MAX_EDGES, `At most ${MAX_EDGES} edges`),
});

export const createWorkflowSchema = (isPattern: Check, isCron: Check) =>
  z.strictObject(fields(isPattern, isCron)).superRefine(graphRefinement);

/** A PATCH replaces whole fields; nodes and edges go together, since each is only valid with the other. */
export const updateWorkflowSchema = (isPattern: Check, isCron: Check) => {
  const f = fields(isPattern, isCron);
  return z
    .strictObject({
      name: f.name.optional(),
      description: f.description.nullable(),
      trigger: f.trigger.optional(),
      nodes: f.nodes.optional(),
      edges: f.edges.optional(),
    })
    .partial()
    .superRefine((body, ctx) => {
      if ((body.nodes === undefined) !== (body.edges === undefined)) {
        ctx.addIssue({ code: 'custom', path: [body.nodes ? 'edges' : 'nodes'], message: 'nodes and edges are replaced together' });
      }
      graphRefinement(body, ctx);
    });
};

export type CreateWorkflow = z.output<ReturnType<typeof createWorkflowSchema>>;
export type UpdateWorkflow = z.output<ReturnType<typeof updateWorkflowSchema>>;

export interface Workflow {
  _id: string;
  name: string;
  description?: string;
  active: boolean;
  version: number;
  trigger: Trigger;
  nodes: WorkflowNode[];
  edges: Edge[];
  createdAt: string;
  updatedAt: string;
}

export const newWorkflow = (id: string, input: CreateWorkflow, now: Date): Workflow => ({
  _id: id,
  name: input.name,
  ...(input.description ? { description: input.description } : {}),
  active: false,
  version: 1,
  trigger: input.trigger,
  nodes: input.nodes as WorkflowNode[],
  edges: input.edges,
  createdAt: now.toISOString(),
  updatedAt: now.toISOString(),
});

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The workflow after a PATCH, or the same object when nothing changes (a no-op keeps version and updatedAt). */
export const applyUpdate = (w: Workflow, input: UpdateWorkflow, now: Date): Workflow => {
  const { description, ...rest } = input;
  const next: Workflow = { ...w, ...(rest as Partial<Workflow>) };
  if (description === null) delete next.description;
  else if (description !== undefined) next.description = description;
  if (same(next, w)) return w;
  return { ...next, version: w.version + 1, updatedAt: now.toISOString() };
};

export const setActive = (w: Workflow, active: boolean, now: Date): Workflow =>
  w.active === active ? w : { ...w, active, updatedAt: now.toISOString() };

/**
 * When an active schedule runs next after `after` (croner: 5-field cron in the trigger's time zone). Croner
 * is loaded here at its first use: of the workflow routes, only those that validate a trigger need it at once.
 */
export const nextRunAt = async (trigger: Trigger, after: Date): Promise<string | undefined> => {
  if (trigger.type !== 'schedule') return undefined;
  const { nextRun } = await import('./cron');
  return nextRun(trigger.cron, trigger.timezone, after);
};

/** The HTTPS URLs a definition names literally (no template): checked against SSRF rules when it is saved. */
export const literalUrls = (nodes: readonly WorkflowNode[]): { path: string; url: string }[] =>
  nodes.flatMap((n, i) => {
    if (n.type === 'http_request') {
      const { url } = n.config as { url: string };
      return url.includes('{{') ? [] : [{ path: `nodes[${i}].config.url`, url }];
    }
    if (n.type === 'on_error') {
      const targets = (n.config as { targets?: { url: string }[] }).targets ?? [];
      return targets.map((t, j) => ({ path: `nodes[${i}].config.targets[${j}].url`, url: t.url }));
    }
    return [];
  });

const valueAt = (data: unknown, path: string): unknown =>
  path
    .split('.')
    .reduce<unknown>(
      (v, seg) => (v !== null && typeof v === 'object' && Object.hasOwn(v, seg) ? (v as Record<string, unknown>)[seg] : undefined),
      data,
    );

/** An event trigger's `filter`: every dot path into the event's `data` holds exactly its value. */
export const matchesFilter = (filter: Record<string, unknown> | undefined, data: unknown): boolean =>
  Object.entries(filter ?? {}).every(([path, value]) => valueAt(data, path) === value);
