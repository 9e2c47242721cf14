import { route } from '../../../shared/http/route';
import { listOf } from '../../../shared/views/common';
import { conversation } from '../../../shared/views/inbox';
import { paginationOf } from '../../../shared/http/pagination';
import { listConversations } from '../../../shared/inbox/conversations';
import { ConversationFilters } from './schemas';

export const handler = route(
  { scope: 'inbox:read', query: ConversationFilters, response: listOf('conversations', conversation) },
  async ({ query, tenant }) => {
    const { page, limit, cursor, ...filters } = query;
    const { conversations, total, nextCursor } = await listConversations(tenant, filters, { page, limit, cursor });
    return { conversations, pagination: paginationOf(total, query, nextCursor) };
  },
);
