import { route } from '../../../shared/http/route';
import { deletion } from '../../../shared/views/deletion';
import { article } from '../../../shared/views/ai';
import { deleteArticle } from '../../../shared/ai/articles';
import { IdParams } from './schemas';

export const handler = route(
  { scope: 'ai:write', params: IdParams, response: deletion('article', article) },
  async ({ params, tenant, now, unit }) => ({
    article: await deleteArticle(unit, tenant, params.id, now),
    deleted: true as const,
  }),
);
