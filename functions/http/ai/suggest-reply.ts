import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { suggestion } from '../../../shared/views/ai';
import { suggestForConversation } from '../../../shared/ai/suggest';
import { SuggestReply } from './schemas';

export const handler = route(
  { scope: 'ai:read', body: SuggestReply, response: z.strictObject({ suggestion }) },
  async ({ body, tenant }) => ({
    suggestion: await suggestForConversation(tenant, body.conversationId),
  }),
);
