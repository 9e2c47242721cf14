import { PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { bus } from '../aws/bus';
import { config } from '../config';
import { hashToken, tokenState } from '../domain/auth/token';
import { firstIdAt, retentionStart } from '../domain/events/log-range';
import { frame, parseMessage, SOCKET_SOURCE, SOCKETS_PER_TOKEN, SUBSCRIBED_DETAIL_TYPE, type Frame } from '../domain/realtime/protocol';
import { isValidPattern } from '../events/types';
import {
  countTokenConnections,
  forgetConnection,
  readConnection,
  redeemTicket,
  storeConnection,
  subscribeConnection,
} from '../data/realtime';
import { getToken } from '../data/tokens';
import { visibleTypes } from './events-log';

/** What a WebSocket route answers API Gateway: a status (a refused `$connect` is refused with it) and a frame for the client. */
export interface SocketAnswer {
  statusCode: number;
  body?: string;
}

/**
 * `$connect`: redeems the ticket (once, before it expires) for a socket of its token, workspace and mode.
 * Refused with 401 (no such ticket, already used, or its token revoked or expired since), 403 (expired
 * ticket) or 429 (the token holds its cap of sockets).
 */
export const openSocket = async (connectionId: string, ticket: string | undefined, now: Date): Promise<SocketAnswer> => {
  if (!ticket) return { statusCode: 401 };
  const claims = await redeemTicket(hashToken(ticket), now);
  if (claims === 'unknown') return { statusCode: 401 };
  if (claims === 'expired') return { statusCode: 403 };
  const token = await getToken(claims.tokenId);
  if (!token || tokenState(token, now) !== 'active') return { statusCode: 401 };
  if ((await countTokenConnections(claims.tokenId)) >= SOCKETS_PER_TOKEN) return { statusCode: 429 };
  await storeConnection(connectionId, claims, now);
  return { statusCode: 200 };
};

export const closeSocket = (connectionId: string): Promise<void> => forgetConnection(connectionId);

const reply = (f: Frame): SocketAnswer => ({ statusCode: 200, body: frame(f) });

const requestReplay = async (connectionId: string) => {
  const { FailedEntryCount, Entries } = await bus().send(
    new PutEventsCommand({
      Entries: [
        {
          EventBusName: config().EVENT_BUS_NAME,
          Source: SOCKET_SOURCE,
          DetailType: SUBSCRIBED_DETAIL_TYPE,
          Detail: JSON.stringify({ connectionId }),
        },
      ],
    }),
  );
  if (FailedEntryCount) throw new Error(`the bus refused the replay request: ${Entries?.[0]?.ErrorCode ?? 'unknown'}`);
};

/**
 * `$default`: a client's message. `ping` answers `pong`; `subscribe` stores the socket's one subscription
 * (narrowed to what its token may read) and asks the push function to replay and go live. Anything else
 * answers an error frame, and the socket stays open.
 */
export const receiveMessage = async (connectionId: string, body: string | undefined, now: Date): Promise<SocketAnswer> => {
  const message = parseMessage(body, isValidPattern, firstIdAt(retentionStart(now)));
  if ('type' in message) return reply(message);
  if (message.action === 'ping') return reply({ type: 'pong' });
  const connection = await readConnection(connectionId);
  if (!connection) return { statusCode: 410 };
  const types = visibleTypes(connection.scopes, message.events);
  if (types.exact.length === 0 && types.prefixes.length === 0)
    return reply({
      type: 'error',
      code: 'FORBIDDEN',
      message: 'The token may read none of these events: each category needs its read scope',
    });
  if (!(await subscribeConnection(connection, { ...types, since: message.since ?? null }, now)))
    return reply({ type: 'error', code: 'ALREADY_SUBSCRIBED', message: 'A socket subscribes once; open another for other events' });
  await requestReplay(connectionId);
  return { statusCode: 200 };
};
