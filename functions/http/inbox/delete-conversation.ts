import { route } from '../../../shared/http/route';
import { deleteConversation } from '../../../shared/data/conversations';
import { IdParams } from './schemas';

export const handler = route({ scope: 'inbox:write', params: IdParams }, async ({ params, tenant, now }) => ({
  conversation: await deleteConversation(tenant, params.id, now),
  deleted: true,
}));
