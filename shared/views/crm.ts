import * as z from 'zod';
import { ACTIVITY_TYPES, type Activity } from '../domain/crm/activity';
import { LeadStatus, type Lead, type StageStay } from '../domain/crm/lead';
import { StageKind, type Pipeline } from '../domain/crm/pipeline';
import { TaskPriority, TaskStatus, type Task } from '../domain/crm/task';
import { exactly, id, nullableId, time } from './common';
import { built } from '../domain/built';

/** A stage of a pipeline, in its place in the pipeline's order. */
export const stage = /* @__PURE__ */ built(() =>
  z
    .strictObject({ _id: id, name: z.string(), kind: StageKind, probability: z.number().min(0).max(1), position: z.number().int().min(0) })
    .meta({ id: 'Stage' }),
);

export const pipeline = /* @__PURE__ */ built(() =>
  exactly<Pipeline>()(
    z.strictObject({
      _id: id,
      name: z.string(),
      stages: z.array(stage),
      createdAt: time,
      updatedAt: time,
    }),
  ).meta({ id: 'Pipeline' }),
);

export const lead = /* @__PURE__ */ built(() =>
  exactly<Lead>()(
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
  ).meta({ id: 'Lead' }),
);

export const task = /* @__PURE__ */ built(() =>
  exactly<Task>()(
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
  ).meta({ id: 'Task' }),
);

export const activity = /* @__PURE__ */ built(() =>
  exactly<Activity>()(
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
  ).meta({ id: 'Activity' }),
);

/** A lead's stay in one stage: `exitedAt` and `durationSeconds` are null while it is still there. */
export const stageStay = /* @__PURE__ */ built(() =>
  exactly<StageStay>()(
    z.strictObject({
      pipelineId: id,
      stageId: id,
      enteredAt: time,
      exitedAt: time.nullable(),
      durationSeconds: z.number().int().min(0).nullable(),
    }),
  ).meta({ id: 'StageStay' }),
);

const amount = /* @__PURE__ */ built(() => z.number().int());
const values = /* @__PURE__ */ built(() => z.array(z.strictObject({ currency: z.string().length(3), amount, weightedAmount: amount })));

/** A pipeline's open value by stage and currency, weighted by each stage's probability. */
export const summary = /* @__PURE__ */ built(() =>
  z
    .strictObject({
      pipelineId: id,
      stages: z.array(
        z.strictObject({
          stageId: id,
          name: z.string(),
          kind: StageKind,
          probability: z.number().min(0).max(1),
          count: z.number().int().min(0),
          values,
        }),
      ),
      count: z.number().int().min(0),
      values,
    })
    .meta({ id: 'PipelineSummary' }),
);
