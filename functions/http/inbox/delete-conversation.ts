import { route } from '../../../shared/http/route';
import { deletion } from '../../../shared/views/deletion';
import { conversation } from '../../../shared/views/inbox';
import { deleteConversation } from '../../../shared/inbox/conversations';
import { IdParams } from './schemas';

export const handler = route(
  { scope: 'inbox:write', params: IdParams, response: deletion('conversation', conversation) },
  async ({ params, tenant, now, unit }) => ({
    conversation: await deleteConversation(unit, tenant, params.id, now),
    deleted: true as const,
  }),
);
