import { route } from '../../../shared/http/route';
import { account } from '../../../shared/views/channels';
import { listOf } from '../../../shared/views/common';
import { ListQuery, paginationOf } from '../../../shared/http/pagination';
import { listChannels } from '../../../shared/channels/account-records';

export const handler = route(
  { scope: 'channels:read', query: ListQuery, response: listOf('channels', account) },
  async ({ query, tenant }) => {
    const { channels, total, nextCursor } = await listChannels(tenant, query);
    return { channels, pagination: paginationOf(total, query, nextCursor) };
  },
);
