import { route } from '../../../shared/http/route';
import { ListQuery, paginationOf } from '../../../shared/http/pagination';
import { listPipelines } from '../../../shared/data/pipelines';

export const handler = route({ scope: 'crm:read', query: ListQuery }, async ({ query, tenant }) => {
  const { pipelines, total, nextCursor } = await listPipelines(tenant, query);
  return { pipelines, pagination: paginationOf(total, query, nextCursor) };
});
