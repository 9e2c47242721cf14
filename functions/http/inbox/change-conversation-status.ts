import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { conversation } from '../../../shared/views/inbox';
import { mutateConversation } from '../../../shared/data/conversations';
import { changeStatus } from '../../../shared/domain/inbox/state-machine';
import { ChangeStatus, IdParams } from './schemas';

export const handler = route(
  { scope: 'inbox:write', params: IdParams, body: ChangeStatus, response: z.strictObject({ conversation }) },
  async ({ params, body, tenant, now }) => ({
    conversation: await mutateConversation(
      tenant,
      params.id,
      (c) => ({ change: changeStatus(c, body.status, { snoozedUntil: body.snoozedUntil, now }) }),
      now,
    ),
  }),
);
