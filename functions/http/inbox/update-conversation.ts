import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { conversation } from '../../../shared/views/inbox';
import { editConversation } from '../../../shared/inbox/conversations';
import { IdParams, UpdateConversation } from './schemas';

export const handler = route(
  { scope: 'inbox:write', params: IdParams, body: UpdateConversation, response: z.strictObject({ conversation }) },
  async ({ params, body, tenant, now, unit }) => ({
    conversation: await editConversation(unit, tenant, params.id, body, now),
  }),
);
