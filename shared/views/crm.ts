import * as z from 'zod';
import { ACTIVITY_TYPES, type Activity } from '../domain/crm/activity';
import { LeadStatus, type Lead } from '../domain/crm/lead';
import { StageKind, type Pipeline } from '../domain/crm/pipeline';
import { TaskPriority, TaskStatus, type Task } from '../domain/crm/task';
import { exactly, id, nullableId, time } from './common';

export const pipeline = exactly<Pipeline>()(
  z.strictObject({
    _id: id,
    name: z.string(),
    stages: z.array(z.strictObject({ _id: id, name: z.string(), kind: StageKind, probability: z.number().min(0).max(1), position: z.number().int().min(0) })),
    createdAt: time,
    updatedAt: time,
  }),
).meta({ id: 'Pipeline' });

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
).meta({ id: 'Lead' });

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
).meta({ id: 'Task' });

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
).meta({ id: 'Activity' });
