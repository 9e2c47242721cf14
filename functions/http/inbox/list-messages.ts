import { route } from '../../../shared/http/route';
import { listOf } from '../../../shared/views/common';
import { message } from '../../../shared/views/inbox';
import { ListQuery, paginationOf } from '../../../shared/http/pagination';
import { listMessages } from '../../../shared/inbox/messages';
import { IdParams } from './schemas';

export const handler = route(
  { scope: 'inbox:read', params: IdParams, query: ListQuery, response: listOf('messages', message) },
  async ({ params, query, tenant }) => {
    const { messages, total, nextCursor } = await listMessages(tenant, params.id, query);
    return { messages, pagination: paginationOf(total, query, nextCursor) };
  },
);
