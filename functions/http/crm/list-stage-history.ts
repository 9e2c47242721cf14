import { route } from '../../../shared/http/route';
import { ListQuery, paginationOf } from '../../../shared/http/pagination';
import { stageHistory } from '../../../shared/data/leads-list';
import { IdParams } from './schemas';

export const handler = route({ scope: 'crm:read', params: IdParams, query: ListQuery }, async ({ params, query, tenant }) => {
  const { history, total, nextCursor } = await stageHistory(tenant, params.id, query);
  return { history, pagination: paginationOf(total, query, nextCursor) };
});
