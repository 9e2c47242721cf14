import { route } from '../../../shared/http/route';
import { ListQuery, paginationOf } from '../../../shared/http/pagination';
import { listTags } from '../../../shared/data/tags';

export const handler = route({ scope: 'tags:read', query: ListQuery }, async ({ query, tenant }) => {
  const { tags, total, nextCursor } = await listTags(tenant, query);
  return { tags, pagination: paginationOf(total, query, nextCursor) };
});
