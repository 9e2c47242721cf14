import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { task } from '../../../shared/views/crm';
import { deleteTask } from '../../../shared/crm/tasks';
import { IdParams } from './schemas';

export const handler = route(
  { scope: 'crm:delete', params: IdParams, response: z.strictObject({ task }) },
  async ({ params, tenant, now }) => ({
    task: await deleteTask(tenant, params.id, now),
  }),
);
