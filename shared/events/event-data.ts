import * as z from 'zod';
import { OBJECT_ID } from '../ids';
import { Channel, Priority, Status, type Conversation } from '../domain/inbox/conversation';
import { Attachment, MESSAGE_TYPES, type Message } from '../domain/inbox/message';
import { Identity, type Customer } from '../domain/contacts/customer';
import type { Tag } from '../domain/tags/tag';
import { Audience, BROADCAST_STATUSES, RECIPIENT_STATUSES, STAT_NAMES, type Broadcast, type Recipient } from '../domain/broadcasts/broadcast';
import { ACCOUNT_STATUSES, ApiConfig, CHANNEL_TYPES, EmailConfig, SandboxConfig, type Account } from '../domain/channels/account';
import type { TokenRecord } from '../domain/auth/token';
import type { publicSubscription } from '../domain/webhooks/subscription';
import { WEEKDAYS, type Workspace } from '../domain/auth/workspace';
import { MemberStatus, Role, type Member } from '../domain/auth/member';
import { BookingStatus, type Booking } from '../domain/scheduling/booking';
import { BRANCHES, NODE_TYPES, type NodeType } from '../domain/workflows/nodes';
import { CATEGORIES } from '../domain/workflows/failure';
import { EXECUTION_STATUSES, type Execution, type Step } from '../domain/workflows/execution';
import { ACTIVITY_TYPES, type Activity } from '../domain/crm/activity';
import { LeadStatus, type Lead } from '../domain/crm/lead';
import { StageKind, type Pipeline } from '../domain/crm/pipeline';
import { TaskPriority, TaskStatus, type Task } from '../domain/crm/task';
import type { Article } from '../domain/ai/article';

/**
 * The entities as events carry them in `data`, for the catalog. Each schema is type-checked against its
 * entity's own type in both directions, so a field added to or dropped from either fails `tsc`.
 */
const exactly =
  <T>() =>
  <S extends z.ZodType<T>>(schema: S & ([T] extends [z.output<S>] ? unknown : never)): S =>
    schema;

const id = z.string().regex(OBJECT_ID);
const time = z.iso.datetime();

export const conversation = exactly<Conversation>()(
  z.strictObject({
    _id: id,
    number: z.number().int().min(1),
    customerId: id,
    channel: Channel,
    channelId: id.nullable(),
    status: Status,
    snoozedUntil: time.nullable(),
    assigneeId: z.string().nullable(),
    priority: Priority,
    subject: z.string().nullable(),
    lastMessageAt: time.nullable(),
    unreadCount: z.number().int().min(0),
    messageCount: z.number().int().min(0),
    tagIds: z.array(id),
    createdAt: time,
    updatedAt: time,
  }),
);

export const message = exactly<Message>()(
  z.strictObject({
    _id: id,
    conversationId: id,
    type: z.enum(MESSAGE_TYPES),
    private: z.boolean(),
    content: z.string().nullable(),
    attachments: z.array(Attachment),
    deliveryStatus: z.enum(['received', 'pending', 'sent', 'delivered', 'read', 'failed']).nullable(),
    failureReason: z.string().nullable(),
    author: z.strictObject({ type: z.enum(['customer', 'token', 'system', 'ai']), id: z.string().nullable() }),
    externalId: z.string().nullable(),
    createdAt: time,
  }),
);

export const contact = exactly<Customer>()(
  z.strictObject({
    _id: id,
    name: z.string().nullable(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    externalId: z.string().nullable(),
    attributes: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
    identities: z.array(Identity),
    tagIds: z.array(id),
    blocked: z.boolean(),
    lastActivityAt: time.nullable(),
    createdAt: time,
    updatedAt: time,
  }),
);

export const tag = exactly<Tag>()(
  z.strictObject({ _id: id, name: z.string(), color: z.string(), description: z.string().nullable(), createdAt: time, updatedAt: time }),
);

export const token = exactly<TokenRecord>()(
  z.strictObject({
    _id: id,
    name: z.string(),
    prefix: z.string(),
    environment: z.enum(['live', 'test']),
    scopes: z.array(z.string()),
    workspaceIds: z.array(id),
    createdAt: time,
    expiresAt: time.optional(),
    revokedAt: time.optional(),
  }),
);

const span = z.strictObject({ start: z.string(), end: z.string() });

export const workspace = exactly<Workspace>()(
  z.strictObject({
    _id: id,
    name: z.string(),
    timezone: z.string(),
    locale: z.string(),
    businessHours: z.strictObject(Object.fromEntries(WEEKDAYS.map((d) => [d, z.array(span)])) as Record<(typeof WEEKDAYS)[number], z.ZodArray<typeof span>>),
    createdAt: time,
    updatedAt: time,
  }),
);

export const member = exactly<Member>()(
  z.strictObject({
    _id: id,
    email: z.string(),
    name: z.string().nullable(),
    role: Role,
    status: MemberStatus,
    invitedAt: time,
    joinedAt: time.nullable(),
    removedAt: time.nullable(),
    createdAt: time,
    updatedAt: time,
  }),
);

export const booking = exactly<Booking>()(
  z.strictObject({
    _id: id,
    title: z.string(),
    customerId: id,
    assigneeId: id,
    startAt: time,
    endAt: time,
    timezone: z.string(),
    location: z.string().nullable(),
    notes: z.string().nullable(),
    status: BookingStatus,
    cancellationReason: z.string().nullable(),
    createdAt: time,
    updatedAt: time,
  }),
);

/** A subscription as every response shows it: without its secret. */
export const subscription = exactly<ReturnType<typeof publicSubscription>>()(
  z.strictObject({
    _id: id,
    workspaceId: id,
    livemode: z.boolean(),
    url: z.string(),
    events: z.array(z.string()),
    active: z.boolean(),
    consecutiveFailures: z.number().int().min(0),
    activatedAt: time.optional(),
    deactivatedAt: time.optional(),
    deactivationReason: z.enum(['manual', 'gone_410', 'consecutive_failures']).optional(),
    createdAt: time,
    updatedAt: time,
  }),
);

const workflowNode = z.strictObject({ id: z.string(), type: z.enum(NODE_TYPES as [NodeType, ...NodeType[]]), name: z.string().optional(), config: z.record(z.string(), z.unknown()) });

/** A workflow definition (its nodes' configs are checked per type when saved; see the API reference). */
export const definition = z.strictObject({
  _id: id,
  name: z.string(),
  description: z.string().optional(),
  active: z.boolean(),
  version: z.number().int().min(1),
  trigger: z.looseObject({ type: z.enum(['event', 'manual', 'schedule']) }),
  nodes: z.array(workflowNode),
  edges: z.array(z.strictObject({ from: z.string(), to: z.string(), branch: z.enum(BRANCHES) })),
  createdAt: time,
  updatedAt: time,
});

const category = z.enum([...CATEGORIES, 'other']);

export const execution = exactly<Execution>()(
  z.strictObject({
    _id: id,
    workflowId: id,
    workflowVersion: z.number().int().min(1),
    status: z.enum(EXECUTION_STATUSES),
    trigger: z.strictObject({ type: z.enum(['event', 'manual', 'schedule']), eventId: z.string().optional(), payload: z.unknown().optional() }),
    depth: z.number().int().min(1),
    startedAt: time,
    endedAt: time.optional(),
    error: z.strictObject({ message: z.string(), category, nodeId: z.string(), nodeType: z.string() }).optional(),
  }),
);

export const step = exactly<Step>()(
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
);

const nullableId = id.nullable();

export const pipeline = exactly<Pipeline>()(
  z.strictObject({
    _id: id,
    name: z.string(),
    stages: z.array(z.strictObject({ _id: id, name: z.string(), kind: StageKind, probability: z.number().min(0).max(1), position: z.number().int().min(0) })),
    createdAt: time,
    updatedAt: time,
  }),
);

export const lead = exactly<Lead>()(
  z.strictObject({
    _id: id,
    title: z.string(),
    pipelineId: id,
    stageId: id,
    status: LeadStatus,
    value: z.strictObject({ amount: z.number().int().min(0), currency: z.string().length(3) }).nullable(),
    customerId: nullableId,
    conversationId: nullableId,
    assigneeId: z.string().nullable(),
    source: z.string().nullable(),
    expectedCloseDate: z.iso.date().nullable(),
    lostReason: z.string().nullable(),
    tagIds: z.array(id),
    attributes: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
    stageEnteredAt: time,
    closedAt: time.nullable(),
    createdAt: time,
    updatedAt: time,
  }),
);

export const task = exactly<Task>()(
  z.strictObject({
    _id: id,
    title: z.string(),
    description: z.string().nullable(),
    status: TaskStatus,
    priority: TaskPriority,
    dueAt: time.nullable(),
    assigneeId: z.string().nullable(),
    leadId: nullableId,
    customerId: nullableId,
    conversationId: nullableId,
    completedAt: time.nullable(),
    createdAt: time,
    updatedAt: time,
  }),
);

export const activity = exactly<Activity>()(
  z.strictObject({
    _id: id,
    type: z.enum(ACTIVITY_TYPES),
    leadId: nullableId,
    customerId: nullableId,
    subject: z.string().nullable(),
    body: z.string().nullable(),
    occurredAt: time,
    durationSeconds: z.number().int().min(0).nullable(),
    details: z.record(z.string(), z.string().nullable()).nullable(),
    createdAt: time,
  }),
);

export const article = exactly<Article>()(
  z.strictObject({
    _id: id,
    title: z.string(),
    body: z.string(),
    tags: z.array(z.string()),
    published: z.boolean(),
    locale: z.string(),
    createdAt: time,
    updatedAt: time,
  }),
);

export const account = exactly<Account>()(
  z.strictObject({
    _id: id,
    type: z.enum(CHANNEL_TYPES),
    name: z.string(),
    status: z.enum(ACCOUNT_STATUSES),
    config: z.union([ApiConfig, EmailConfig, SandboxConfig]),
    ratePerSecond: z.number().int().min(1),
    secretNames: z.array(z.enum(['signingSecret', 'smtpPassword'])),
    lastError: z.strictObject({ reason: z.string(), at: time }).nullable(),
    createdAt: time,
    updatedAt: time,
  }),
);

export const campaign = exactly<Broadcast>()(
  z.strictObject({
    _id: id,
    name: z.string(),
    channelId: id,
    audience: Audience,
    content: z.string(),
    subject: z.string().nullable(),
    status: z.enum(BROADCAST_STATUSES),
    scheduledAt: time.nullable(),
    startedAt: time.nullable(),
    completedAt: time.nullable(),
    failureReason: z.string().nullable(),
    stats: z.strictObject(Object.fromEntries(STAT_NAMES.map((n) => [n, z.number().int().min(0)])) as Record<(typeof STAT_NAMES)[number], z.ZodNumber>),
    createdAt: time,
    updatedAt: time,
  }),
);

export const recipient = exactly<Recipient>()(
  z.strictObject({
    broadcastId: id,
    customerId: id,
    status: z.enum(RECIPIENT_STATUSES),
    reason: z.string().nullable(),
    sentAt: time.nullable(),
    updatedAt: time,
  }),
);
