import * as z from 'zod';
import { DateTime } from '../../../../shared/domain/dates';
import { ListQuery } from '../../../../shared/http/pagination';
import { ActivityType } from '../../../../shared/domain/crm/activity';
import { ObjectId } from '../../../../shared/http/params';
import { Text } from './fields';
import { built } from '../../../../shared/domain/built';

export const CreateActivity = /* @__PURE__ */ built(() =>
  z.strictObject({
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
  }),
);
export const ActivityFilters = /* @__PURE__ */ built(() =>
  z.strictObject({ ...ListQuery.shape, leadId: ObjectId.optional(), customerId: ObjectId.optional() }),
);
