import { route } from '../../../shared/http/route';
import { articleSummary } from '../../../shared/views/ai';
import { listOf } from '../../../shared/views/common';
import { ListQuery, paginationOf } from '../../../shared/http/pagination';
import { listArticles } from '../../../shared/ai/articles';

export const handler = route(
  { scope: 'ai:read', query: ListQuery, response: listOf('articles', articleSummary) },
  async ({ query, tenant }) => {
    const { articles, total, nextCursor } = await listArticles(tenant, query);
    return { articles, pagination: paginationOf(total, query, nextCursor) };
  },
);
