import { route } from '../../../shared/http/route';
import { ListQuery, paginationOf } from '../../../shared/http/pagination';
import { listChannels } from '../../../shared/data/channels';

export const handler = route({ scope: 'channels:read', query: ListQuery }, async ({ query, tenant }) => {
  const { channels, total, nextCursor } = await listChannels(tenant, query);
  return { channels, pagination: paginationOf(total, query, nextCursor) };
});
