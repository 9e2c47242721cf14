import { route } from '../../../shared/http/route';
import { getArticle } from '../../../shared/data/kb-articles';
import { IdParams } from './schemas';

export const handler = route({ scope: 'ai:read', params: IdParams }, async ({ params, tenant }) => ({ article: await getArticle(tenant, params.id) }));
