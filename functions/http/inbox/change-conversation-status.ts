import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { conversation } from '../../../shared/views/inbox';
import { changeConversationStatus } from '../../../shared/inbox/conversations';
import { ChangeStatus, IdParams } from './schemas';

export const handler = route(
  { scope: 'inbox:write', params: IdParams, body: ChangeStatus, response: z.strictObject({ conversation }) },
  async ({ params, body, tenant, now, unit }) => ({
    conversation: await changeConversationStatus(unit, tenant, params.id, body, now),
  }),
);
