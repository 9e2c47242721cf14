import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { task } from '../../../shared/views/crm';
import { updateTask } from '../../../shared/crm/tasks';
import { IdParams } from '../../../shared/http/params';
import { UpdateTask } from './schemas/tasks';

export const handler = route(
  { scope: 'crm:update', params: IdParams, body: UpdateTask, response: z.strictObject({ task }) },
  async ({ params, body, tenant, now, unit }) => ({
    task: await updateTask(unit, tenant, params.id, body, now),
  }),
);
