import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { article } from '../../../shared/views/ai';
import { CreateArticle } from '../../../shared/domain/ai/article';
import { createArticle } from '../../../shared/ai/articles';

export const handler = route(
  { scope: 'ai:write', body: CreateArticle, status: 201, response: z.strictObject({ article }) },
  async ({ body, tenant, now, unit }) => ({
    article: await createArticle(unit, tenant, body, now),
  }),
);
