import { route } from '../../../shared/http/route';
import { listOf } from '../../../shared/views/common';
import { task } from '../../../shared/views/crm';
import { paginationOf } from '../../../shared/http/pagination';
import { listTasks } from '../../../shared/crm/tasks';
import { TaskFilters } from './schemas/tasks';

export const handler = route({ scope: 'crm:read', query: TaskFilters, response: listOf('tasks', task) }, async ({ query, tenant, now }) => {
  const { page, limit, cursor, ...filters } = query;
  const { tasks, total, nextCursor } = await listTasks(tenant, filters, { page, limit, cursor }, now);
  return { tasks, pagination: paginationOf(total, query, nextCursor) };
});
