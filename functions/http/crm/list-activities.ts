import { route } from '../../../shared/http/route';
import { listOf } from '../../../shared/views/common';
import { activity } from '../../../shared/views/crm';
import { paginationOf } from '../../../shared/http/pagination';
import { listActivities } from '../../../shared/crm/activities';
import { ActivityFilters } from './schemas/activities';

export const handler = route(
  { scope: 'crm:read', query: ActivityFilters, response: listOf('activities', activity) },
  async ({ query, tenant }) => {
    const { page, limit, cursor, ...filter } = query;
    const { activities, total, nextCursor } = await listActivities(tenant, filter, { page, limit, cursor });
    return { activities, pagination: paginationOf(total, query, nextCursor) };
  },
);
