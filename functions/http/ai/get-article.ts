import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { article } from '../../../shared/views/ai';
import { getArticle } from '../../../shared/ai/articles';
import { IdParams } from './schemas';

export const handler = route({ scope: 'ai:read', params: IdParams, response: z.strictObject({ article }) }, async ({ params, tenant }) => ({
  article: await getArticle(tenant, params.id),
}));
