import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { conversation } from '../../../shared/views/inbox';
import { mutateConversation } from '../../../shared/data/conversations';
import { edit } from '../../../shared/domain/inbox/edits';
import { IdParams, UpdateConversation } from './schemas';

export const handler = route(
  { scope: 'inbox:write', params: IdParams, body: UpdateConversation, response: z.strictObject({ conversation }) },
  async ({ params, body, tenant, now }) => ({
    conversation: await mutateConversation(tenant, params.id, (c) => ({ change: edit(c, body, now) }), now),
  }),
);
