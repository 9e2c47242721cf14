import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { task } from '../../../shared/views/crm';
import { requireTask } from '../../../shared/crm/tasks';
import { IdParams } from '../../../shared/http/params';

export const handler = route({ scope: 'crm:read', params: IdParams, response: z.strictObject({ task }) }, async ({ params, tenant }) => ({
  task: await requireTask(tenant, params.id),
}));
