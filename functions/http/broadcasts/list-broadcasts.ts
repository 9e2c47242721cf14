import { route } from '../../../shared/http/route';
import { campaign } from '../../../shared/views/broadcasts';
import { listOf } from '../../../shared/views/common';
import { ListQuery, paginationOf } from '../../../shared/http/pagination';
import { listBroadcasts } from '../../../shared/broadcasts/records';

export const handler = route(
  { scope: 'channels:read', query: ListQuery, response: listOf('broadcasts', campaign) },
  async ({ query, tenant }) => {
    const { broadcasts, total, nextCursor } = await listBroadcasts(tenant, query);
    return { broadcasts, pagination: paginationOf(total, query, nextCursor) };
  },
);
