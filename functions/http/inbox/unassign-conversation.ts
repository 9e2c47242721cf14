import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { conversation } from '../../../shared/views/inbox';
import { mutateConversation } from '../../../shared/data/conversations';
import { unassign } from '../../../shared/domain/inbox/edits';
import { IdParams } from './schemas';

export const handler = route(
  { scope: 'inbox:write', params: IdParams, response: z.strictObject({ conversation }) },
  async ({ params, tenant, now }) => ({
    conversation: await mutateConversation(tenant, params.id, (c) => ({ change: unassign(c, now) }), now),
  }),
);
