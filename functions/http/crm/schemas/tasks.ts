import * as z from 'zod';
import { DateTime } from '../../../../shared/domain/dates';
import { ListQuery } from '../../../../shared/http/pagination';
import { TaskPriority, TaskStatus } from '../../../../shared/domain/crm/task';
import { ObjectId } from '../../../../shared/http/params';
import { Assignee, Name, Text } from './fields';
import { built } from '../../../../shared/domain/built';

const taskFields = () => ({
  description: Text(5000).nullable().optional(),
  priority: TaskPriority.optional(),
  dueAt: DateTime.nullable().optional(),
  assigneeId: ObjectId.nullable().optional(),
  leadId: ObjectId.nullable().optional(),
  customerId: ObjectId.nullable().optional(),
  conversationId: ObjectId.nullable().optional(),
});
export const CreateTask = /* @__PURE__ */ built(() => z.strictObject({ title: Name, ...taskFields() }));
export const UpdateTask = /* @__PURE__ */ built(() => z.strictObject({ title: Name.optional(), ...taskFields() }));
export const TaskFilters = /* @__PURE__ */ built(() =>
  z.strictObject({
    ...ListQuery.shape,
    status: TaskStatus.optional(),
    assigneeId: Assignee.optional(),
    leadId: ObjectId.optional(),
    overdue: z
      .enum(['true', 'false'])
      .transform((v) => v === 'true')
      .optional(),
  }),
);
