import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { passage } from '../../../shared/views/ai';
import { searchKnowledge } from '../../../shared/ai/knowledge';
import { SearchQuery } from './schemas';

export const handler = route(
  { scope: 'ai:read', query: SearchQuery, response: z.strictObject({ passages: z.array(passage) }) },
  async ({ query, tenant }) => ({
    passages: await searchKnowledge(tenant, query.q, { limit: query.limit, language: query.locale }),
  }),
);
