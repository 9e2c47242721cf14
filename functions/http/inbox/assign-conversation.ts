import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { conversation } from '../../../shared/views/inbox';
import { mutateConversation } from '../../../shared/data/conversations';
import { assign } from '../../../shared/domain/inbox/edits';
import { Assign, IdParams } from './schemas';

export const handler = route(
  { scope: 'inbox:write', params: IdParams, body: Assign, response: z.strictObject({ conversation }) },
  async ({ params, body, tenant, now }) => ({
    conversation: await mutateConversation(tenant, params.id, (c) => ({ change: assign(c, body.assigneeId, now) }), now),
  }),
);
