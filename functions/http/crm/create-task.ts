import { route } from '../../../shared/http/route';
import { createTask } from '../../../shared/data/tasks';
import { CreateTask } from './schemas';

export const handler = route({ scope: 'crm:create', body: CreateTask, status: 201 }, async ({ body, tenant, now }) => ({
  task: await createTask(tenant, body, now),
}));
