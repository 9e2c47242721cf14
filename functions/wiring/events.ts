import { OUTBOX_DETAIL_TYPE, OUTBOX_SOURCE } from '../../shared/events/from-bus';
import { SOCKET_SOURCE, SUBSCRIBED_DETAIL_TYPE } from '../../shared/domain/realtime/protocol';
import { areaRoutes } from './route';
import type { AreaWiring, SocketSpec } from './types';

const events = areaRoutes('events');
const realtime = areaRoutes('realtime');

/** The push function: the one function that may post to (and close) the realtime sockets. */
const push = { handler: 'functions/events/realtime-push.ts', access: { table: 'write', connections: true }, timeoutSeconds: 60 } as const;

export const eventsWiring = {
  routes: [
    events(
      'GET',
      '/api/v1/events',
      'list-events',
      'Events of the last 30 days the token may see: newest first, or after `since` oldest first',
    ),
    events('GET', '/api/v1/events/{id}', 'get-event', 'One event, as webhooks deliver it'),
    realtime('POST', '/api/v1/realtime/tickets', 'create-ticket', 'A single-use, 60-second ticket and the URL of the realtime socket'),
  ],
  rules: [
    {
      name: 'realtime-push',
      pattern: { source: [OUTBOX_SOURCE, SOCKET_SOURCE], 'detail-type': [OUTBOX_DETAIL_TYPE, SUBSCRIBED_DETAIL_TYPE] },
      target: push,
    },
  ],
} satisfies AreaWiring;

/** The realtime WebSocket API's three routes; `$default` asks the push function (through the bus) to replay. */
export const realtimeSocket: SocketSpec = {
  connect: { handler: 'functions/sockets/connect.ts', access: { table: 'write' } },
  disconnect: { handler: 'functions/sockets/disconnect.ts', access: { table: 'write' } },
  default: { handler: 'functions/sockets/message.ts', access: { table: 'write', bus: true } },
};
