import { route } from '../../../shared/http/route';
import { deleteConversation } from '../../../shared/data/conversations';
import { IdParams } from './schemas';

export const handler = route({ scope: 'inbox:write', params: IdParams }, async ({ params, workspaceId, now }) => ({
  conversation: await deleteConversation(workspaceId, params.id, now),
  deleted: true,
}));
