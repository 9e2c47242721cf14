import { route } from '../../../shared/http/route';
import { receivedMessage } from '../../../shared/views/inbox';
import { receiveMessage } from '../../../shared/channels/incoming';
import { IncomingMessage } from './schemas';

export const handler = route(
  { scope: 'inbox:write', body: IncomingMessage, status: 201, response: receivedMessage, errors: ['NOT_FOUND'] },
  async ({ body, tenant, now, unit }) => receiveMessage(unit, tenant, body, now),
);
