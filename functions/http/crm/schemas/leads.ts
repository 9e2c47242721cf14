import * as z from 'zod';
import { CalendarDate } from '../../../../shared/domain/dates';
import { ListQuery } from '../../../../shared/http/pagination';
import { Attributes } from '../../../../shared/domain/contacts/customer';
import { LeadStatus } from '../../../../shared/domain/crm/lead';
import { Money } from '../../../../shared/domain/crm/money';
import { ObjectId } from '../../../../shared/http/params';
import { Assignee, Name, Text } from './fields';
import { built } from '../../../../shared/domain/built';

const leadFields = () => ({
  value: Money.nullable().optional(),
  customerId: ObjectId.nullable().optional(),
  conversationId: ObjectId.nullable().optional(),
  assigneeId: ObjectId.nullable().optional(),
  source: Text(100).nullable().optional(),
  expectedCloseDate: CalendarDate.nullable().optional(),
  lostReason: Text(500).nullable().optional(),
  attributes: Attributes.optional(),
});
export const CreateLead = /* @__PURE__ */ built(() =>
  z.strictObject({ title: Name, pipelineId: ObjectId, stageId: ObjectId.optional(), ...leadFields() }),
);
export const UpdateLead = /* @__PURE__ */ built(() => z.strictObject({ title: Name.optional(), ...leadFields() }));
export const LeadFilters = /* @__PURE__ */ built(() =>
  z.strictObject({
    ...ListQuery.shape,
    pipelineId: ObjectId.optional(),
    stageId: ObjectId.optional(),
    status: LeadStatus.optional(),
    assigneeId: Assignee.optional(),
    customerId: ObjectId.optional(),
    tagId: ObjectId.optional(),
  }),
);

export const CreateLeadsExport = /* @__PURE__ */ built(() =>
  z.strictObject({
    filter: LeadFilters.omit({ page: true, limit: true, cursor: true }).optional().describe('The filters of `GET /crm/leads`'),
  }),
);
