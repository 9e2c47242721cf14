import { route } from '../../../shared/http/route';
import { suggestForConversation } from '../../../shared/ai/suggest';
import { SuggestReply } from './schemas';

export const handler = route({ scope: 'ai:read', body: SuggestReply }, async ({ body, tenant }) => ({
  suggestion: await suggestForConversation(tenant, body.conversationId),
}));
