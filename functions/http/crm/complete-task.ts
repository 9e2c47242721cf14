import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { task } from '../../../shared/views/crm';
import { completeTaskById } from '../../../shared/crm/tasks';
import { IdParams } from '../../../shared/http/params';

export const handler = route(
  { scope: 'crm:update', params: IdParams, response: z.strictObject({ task }) },
  async ({ params, tenant, now, unit }) => ({
    task: await completeTaskById(unit, tenant, params.id, now),
  }),
);
