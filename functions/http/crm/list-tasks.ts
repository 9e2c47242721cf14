import { route } from '../../../shared/http/route';
import { paginationOf } from '../../../shared/http/pagination';
import { listTasks } from '../../../shared/data/tasks';
import { TaskFilters } from './schemas';

export const handler = route({ scope: 'crm:read', query: TaskFilters }, async ({ query, tenant, now }) => {
  const { page, limit, cursor, ...filters } = query;
  const { tasks, total, nextCursor } = await listTasks(tenant, filters, { page, limit, cursor }, now);
  return { tasks, pagination: paginationOf(total, query, nextCursor) };
});
