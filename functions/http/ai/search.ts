import { route } from '../../../shared/http/route';
import { searchKnowledge } from '../../../shared/ai/knowledge';
import { SearchQuery } from './schemas';

export const handler = route({ scope: 'ai:read', query: SearchQuery }, async ({ query, tenant }) => ({
  passages: await searchKnowledge(tenant, query.q, { limit: query.limit, language: query.locale }),
}));
