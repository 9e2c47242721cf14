import { route } from '../../../shared/http/route';
import { requireConversation } from '../../../shared/data/conversations';
import { IdParams } from './schemas';

export const handler = route({ scope: 'inbox:read', params: IdParams }, async ({ params, tenant }) => ({
  conversation: (await requireConversation(tenant, params.id)).conversation,
}));
