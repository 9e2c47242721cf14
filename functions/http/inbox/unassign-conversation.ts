import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { conversation } from '../../../shared/views/inbox';
import { unassignConversation } from '../../../shared/inbox/conversations';
import { IdParams } from './schemas';

export const handler = route(
  { scope: 'inbox:write', params: IdParams, response: z.strictObject({ conversation }) },
  async ({ params, tenant, now, unit }) => ({
    conversation: await unassignConversation(unit, tenant, params.id, now),
  }),
);
