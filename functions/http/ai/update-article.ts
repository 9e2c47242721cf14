import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { article } from '../../../shared/views/ai';
import { UpdateArticle } from '../../../shared/domain/ai/article';
import { updateArticle } from '../../../shared/ai/articles';
import { IdParams } from './schemas';

export const handler = route(
  { scope: 'ai:write', params: IdParams, body: UpdateArticle, response: z.strictObject({ article }) },
  async ({ params, body, tenant, now, unit }) => ({
    article: await updateArticle(unit, tenant, params.id, body, now),
  }),
);
