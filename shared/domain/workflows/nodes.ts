import * as z from 'zod';
import { freeForm, freeFormMap, type FreeFormLimits } from '../free-form';
import { BACKOFFS, CATEGORIES } from './failure';
import { Status } from '../inbox/conversation';
import { TaskPriority } from '../crm/task';
import { built } from '../built';

/** Node configs (docs/guide/workflows.md). Strings may hold `{{path}}` templates, checked separately (`graph.ts`). */
const text = (max = 10_000) => z.string().max(max);
const id24 = /* @__PURE__ */ built(() => z.string().min(1).max(200));

/** Free-form JSON in a workflow (trigger payloads, http_request bodies). */
export const WORKFLOW_JSON_LIMITS: FreeFormLimits = { maxEntries: 100, maxKeyLength: 256, maxBytes: 64 * 1024, maxDepth: 16 };
const HEADER_LIMITS: FreeFormLimits = { maxEntries: 50, maxKeyLength: 100, maxBytes: 32 * 1024, maxDepth: 1 };
/** A node's config before its type's schema checks it: its keys are fields, its http_request body one level down. */
const CONFIG_LIMITS: FreeFormLimits = {
  ...WORKFLOW_JSON_LIMITS,
  maxEntries: 20,
  maxBytes: 2 * WORKFLOW_JSON_LIMITS.maxBytes,
  maxDepth: WORKFLOW_JSON_LIMITS.maxDepth + 1,
};

const HttpRequest = /* @__PURE__ */ built(() =>
  z.strictObject({
    method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']),
    url: text(2048).refine((u) => u.includes('{{') || (URL.canParse(u) && new URL(u).protocol === 'https:'), 'Must be an https URL'),
    headers: freeFormMap(
      z.string().regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/, 'Must be an HTTP header name'),
      text(2000),
      HEADER_LIMITS,
    ).optional(),
    body: freeForm(z.unknown(), WORKFLOW_JSON_LIMITS).optional(),
  }),
);

const CONDITION_OPERATORS = ['eq', 'neq', 'contains', 'gt', 'gte', 'lt', 'lte', 'exists'] as const;
const scalar = /* @__PURE__ */ built(() => z.union([text(), z.number(), z.boolean()]));

const ON_ERROR_ACTIONS = ['log', 'notify', 'stop', 'escalate'] as const;

export const NODE_CONFIGS = {
  http_request: HttpRequest,
  send_message: /* @__PURE__ */ built(() => z.strictObject({ conversationId: id24, content: text() })),
  add_note: /* @__PURE__ */ built(() => z.strictObject({ conversationId: id24, content: text() })),
  assign_conversation: /* @__PURE__ */ built(() => z.strictObject({ conversationId: id24, assigneeId: id24 })),
  change_conversation_status: /* @__PURE__ */ built(() =>
    z.strictObject({ conversationId: id24, status: Status, snoozedUntil: text(100).optional() }),
  ),
  add_tags: /* @__PURE__ */ built(() =>
    z.strictObject({ entityType: z.enum(['conversation', 'customer']), entityId: id24, tagIds: z.array(id24).min(1).max(50) }),
  ),
  create_task: /* @__PURE__ */ built(() =>
    z.strictObject({
      title: text(200).min(1),
      description: text(5000).optional(),
      priority: TaskPriority.optional(),
      dueAt: text(100).optional(),
      assigneeId: id24.optional(),
      leadId: id24.optional(),
      customerId: id24.optional(),
      conversationId: id24.optional(),
    }),
  ),
  move_lead: /* @__PURE__ */ built(() =>
    z.strictObject({ leadId: id24, stageId: id24, pipelineId: id24.optional(), lostReason: text(500).optional() }),
  ),
  set_variable: /* @__PURE__ */ built(() =>
    z.strictObject({ name: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'Must be 1–64 letters, digits, _ or -'), value: scalar }),
  ),
  wait: /* @__PURE__ */ built(() =>
    z.strictObject({
      seconds: z
        .number()
        .int()
        .min(0)
        .max(30 * 24 * 3600),
    }),
  ),
  condition: /* @__PURE__ */ built(() => z.strictObject({ left: scalar, operator: z.enum(CONDITION_OPERATORS), right: scalar.optional() })),
  fail: /* @__PURE__ */ built(() => z.strictObject({ message: text(1000).min(1) })),
  try_catch: /* @__PURE__ */ built(() => z.strictObject({ categorize: z.boolean().optional() })),
  retry: /* @__PURE__ */ built(() =>
    z.strictObject({
      maxAttempts: z.number().int().min(1).max(10),
      backoff: z.enum(BACKOFFS),
      baseDelaySeconds: z.number().int().min(0).max(3600),
      categories: z.array(z.enum(CATEGORIES)).min(1).max(CATEGORIES.length).optional(),
    }),
  ),
  on_error: /* @__PURE__ */ built(() =>
    z
      .strictObject({
        action: z.enum(ON_ERROR_ACTIONS),
        targets: z
          .array(z.strictObject({ type: z.literal('webhook'), url: text(2048) }))
          .min(1)
          .max(10)
          .optional(),
        assigneeId: id24.optional(),
      })
      .refine((c) => c.action !== 'notify' || c.targets, { path: ['targets'], message: 'notify needs at least one target' }),
  ),
} as const;

export type NodeType = keyof typeof NODE_CONFIGS;
export type NodeConfig<T extends NodeType> = z.output<(typeof NODE_CONFIGS)[T]>;
export const NODE_TYPES = Object.keys(NODE_CONFIGS) as NodeType[];

/** Containers own sub-chains, one per branch label; the first listed branches are required. */
export const CONTAINER_BRANCHES: Partial<Record<NodeType, { required: readonly string[]; optional: readonly string[] }>> = {
  condition: { required: [], optional: ['true', 'false'] },
  try_catch: { required: ['try', 'catch'], optional: [] },
  retry: { required: ['body'], optional: [] },
  on_error: { required: ['body'], optional: [] },
};

export const BRANCHES = ['next', 'true', 'false', 'try', 'catch', 'body'] as const;
export type Branch = (typeof BRANCHES)[number];

const NodeId = /* @__PURE__ */ built(() => z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'Must be 1–64 letters, digits, _ or -'));

/** A node as saved; its config is checked against its type's schema in `graph.ts`, so errors name `nodes[i].config.x`. */
export const NodeInput = /* @__PURE__ */ built(() =>
  z.strictObject({
    id: NodeId,
    type: z.enum(NODE_TYPES as [NodeType, ...NodeType[]]),
    name: z.string().max(200).optional(),
    config: freeFormMap(z.string(), z.unknown(), CONFIG_LIMITS),
  }),
);

export interface WorkflowNode<T extends NodeType = NodeType> {
  id: string;
  type: T;
  name?: string;
  config: NodeConfig<T>;
}

export const EdgeInput = /* @__PURE__ */ built(() => z.strictObject({ from: NodeId, to: NodeId, branch: z.enum(BRANCHES) }));
export type Edge = z.output<typeof EdgeInput>;
