import { route } from '../../../shared/http/route';
import { listOf } from '../../../shared/views/common';
import { tag } from '../../../shared/views/tags';
import { ListQuery, paginationOf } from '../../../shared/http/pagination';
import { listTags } from '../../../shared/tags/catalogue';

export const handler = route({ scope: 'tags:read', query: ListQuery, response: listOf('tags', tag) }, async ({ query, tenant }) => {
  const { tags, total, nextCursor } = await listTags(tenant, query);
  return { tags, pagination: paginationOf(total, query, nextCursor) };
});
