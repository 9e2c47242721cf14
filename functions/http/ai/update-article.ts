import { route } from '../../../shared/http/route';
import { UpdateArticle } from '../../../shared/domain/ai/article';
import { updateArticle } from '../../../shared/data/kb-articles';
import { IdParams } from './schemas';

export const handler = route({ scope: 'ai:write', params: IdParams, body: UpdateArticle }, async ({ params, body, tenant, now }) => ({
  article: await updateArticle(tenant, params.id, body, now),
}));
