import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { conversation } from '../../../shared/views/inbox';
import { assignConversation } from '../../../shared/inbox/conversations';
import { Assign, IdParams } from './schemas';

export const handler = route(
  { scope: 'inbox:write', params: IdParams, body: Assign, response: z.strictObject({ conversation }) },
  async ({ params, body, tenant, now, unit }) => ({
    conversation: await assignConversation(unit, tenant, params.id, body.assigneeId, now),
  }),
);
