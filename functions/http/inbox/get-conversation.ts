import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { conversation } from '../../../shared/views/inbox';
import { requireConversation } from '../../../shared/inbox/conversations';
import { IdParams } from './schemas';

export const handler = route(
  { scope: 'inbox:read', params: IdParams, response: z.strictObject({ conversation }) },
  async ({ params, tenant }) => ({
    conversation: (await requireConversation(tenant, params.id)).conversation,
  }),
);
