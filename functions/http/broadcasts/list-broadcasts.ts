import { route } from '../../../shared/http/route';
import { ListQuery, paginationOf } from '../../../shared/http/pagination';
import { listBroadcasts } from '../../../shared/data/broadcasts';

export const handler = route({ scope: 'channels:read', query: ListQuery }, async ({ query, tenant }) => {
  const { broadcasts, total, nextCursor } = await listBroadcasts(tenant, query);
  return { broadcasts, pagination: paginationOf(total, query, nextCursor) };
});
