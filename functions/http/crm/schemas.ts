import * as z from 'zod';
import { CalendarDate, DateTime } from '../../../shared/domain/dates';
import { ListQuery } from '../../../shared/http/pagination';
import { Attributes } from '../../../shared/domain/contacts/customer';
import { ActivityType } from '../../../shared/domain/crm/activity';
import { LeadStatus } from '../../../shared/domain/crm/lead';
import { UNASSIGNED } from '../../../shared/domain/lists';
import { Money } from '../../../shared/domain/crm/money';
import { MAX_STAGES, StageEdit, StageInput } from '../../../shared/domain/crm/pipeline';
import { TaskPriority, TaskStatus } from '../../../shared/domain/crm/task';
import { ObjectId } from '../../../shared/http/params';
import { ImportColumns } from '../../../shared/domain/imports/columns';
export { IdParams } from '../../../shared/http/params';

/** Path ids that are not object ids are unknown resources (404), like ids of another workspace. */
export const StageParams = z.object({ id: ObjectId, stageId: ObjectId });

const Name = z.string().trim().min(1).max(200);
const Text = (max: number) => z.string().trim().min(1).max(max);
const Assignee = z.union([ObjectId, z.literal(UNASSIGNED)]);

// Pipelines
export const CreatePipeline = z.strictObject({ name: Name, stages: z.array(StageInput).max(MAX_STAGES).optional() });
export const UpdatePipeline = z.strictObject({ name: Name.optional() });
export const CreateStage = StageInput.extend({ position: z.number().int().min(0).max(MAX_STAGES).optional() });
export const UpdateStage = StageEdit;
export const ReorderStages = z.strictObject({ stageIds: z.array(z.string().max(64)).min(1).max(MAX_STAGES) });

// Leads
const LeadFields = {
  value: Money.nullable().optional(),
  customerId: ObjectId.nullable().optional(),
  conversationId: ObjectId.nullable().optional(),
  assigneeId: ObjectId.nullable().optional(),
  source: Text(100).nullable().optional(),
  expectedCloseDate: CalendarDate.nullable().optional(),
  lostReason: Text(500).nullable().optional(),
  attributes: Attributes.optional(),
};
export const CreateLead = z.strictObject({ title: Name, pipelineId: ObjectId, stageId: ObjectId.optional(), ...LeadFields });
export const UpdateLead = z.strictObject({ title: Name.optional(), ...LeadFields });
export const MoveLead = z.strictObject({ stageId: ObjectId, pipelineId: ObjectId.optional(), lostReason: Text(500).optional() });
export const LeadFilters = z.strictObject({
  ...ListQuery.shape,
  pipelineId: ObjectId.optional(),
  stageId: ObjectId.optional(),
  status: LeadStatus.optional(),
  assigneeId: Assignee.optional(),
  customerId: ObjectId.optional(),
  tagId: ObjectId.optional(),
});

// Tasks
const TaskFields = {
  description: Text(5000).nullable().optional(),
  priority: TaskPriority.optional(),
  dueAt: DateTime.nullable().optional(),
  assigneeId: ObjectId.nullable().optional(),
  leadId: ObjectId.nullable().optional(),
  customerId: ObjectId.nullable().optional(),
  conversationId: ObjectId.nullable().optional(),
};
export const CreateTask = z.strictObject({ title: Name, ...TaskFields });
export const UpdateTask = z.strictObject({ title: Name.optional(), ...TaskFields });
export const TaskFilters = z.strictObject({
  ...ListQuery.shape,
  status: TaskStatus.optional(),
  assigneeId: Assignee.optional(),
  leadId: ObjectId.optional(),
  overdue: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .optional(),
});

// Activities
export const CreateActivity = z.strictObject({
  type: ActivityType,
  leadId: ObjectId.optional(),
  customerId: ObjectId.optional(),
  subject: Text(255).optional(),
  body: Text(10_000).optional(),
  occurredAt: DateTime.optional(),
  durationSeconds: z
    .number()
    .int()
    .min(0)
    .max(7 * 24 * 3600)
    .optional(),
});
export const ActivityFilters = z.strictObject({ ...ListQuery.shape, leadId: ObjectId.optional(), customerId: ObjectId.optional() });

export const CreateLeadsExport = z.strictObject({
  filter: LeadFilters.omit({ page: true, limit: true, cursor: true }).optional().describe('The filters of `GET /crm/leads`'),
});

export const CreateLeadsImport = z.strictObject({
  pipelineId: ObjectId,
  columns: ImportColumns.optional().describe(
    'CSV header → field (`title`, `stageId`, `customerEmail`, `valueAmount`, `valueCurrency`, `source`, `expectedCloseDate` or `attributes.<key>`), or null to skip that column',
  ),
});
