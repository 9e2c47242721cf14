import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { task } from '../../../shared/views/crm';
import { createTask } from '../../../shared/crm/tasks';
import { CreateTask } from './schemas/tasks';

export const handler = route(
  { scope: 'crm:create', body: CreateTask, status: 201, response: z.strictObject({ task }) },
  async ({ body, tenant, now, unit }) => ({
    task: await createTask(unit, tenant, body, now),
  }),
);
