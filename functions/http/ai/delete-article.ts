import { route } from '../../../shared/http/route';
import { deleteArticle } from '../../../shared/data/kb-articles';
import { IdParams } from './schemas';

export const handler = route({ scope: 'ai:write', params: IdParams }, async ({ params, tenant, now }) => ({
  article: await deleteArticle(tenant, params.id, now),
  deleted: true,
}));
