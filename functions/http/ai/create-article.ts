import { route } from '../../../shared/http/route';
import { CreateArticle } from '../../../shared/domain/ai/article';
import { createArticle } from '../../../shared/data/kb-articles';

export const handler = route({ scope: 'ai:write', body: CreateArticle, status: 201 }, async ({ body, tenant, now }) => ({
  article: await createArticle(tenant, body, now),
}));
