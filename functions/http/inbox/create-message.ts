import { route } from '../../../shared/http/route';
import { postedMessage } from '../../../shared/views/inbox';
import { postReply } from '../../../shared/inbox/messages';
import { CreateMessage, IdParams } from './schemas';

export const handler = route(
  { scope: 'inbox:write', params: IdParams, body: CreateMessage, status: 201, response: postedMessage },
  async ({ params, body, tenant, token, now, unit }) =>
    postReply(unit, tenant, params.id, { ...body, author: { type: 'token', id: token._id } }, now),
);
