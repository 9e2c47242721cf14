import { route } from '../../../shared/http/route';
import { createConversation } from '../../../shared/data/conversations';
import { CreateConversation } from './schemas';

export const handler = route({ scope: 'inbox:write', body: CreateConversation, status: 201 }, async ({ body, tenant, now }) => ({
  conversation: await createConversation(tenant, body, now),
}));
