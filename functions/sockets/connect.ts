import type { APIGatewayProxyWebsocketEventV2 } from 'aws-lambda';
import { observed } from '../../shared/observability/invocation';
import { openSocket } from '../../shared/realtime/sockets';

type ConnectEvent = APIGatewayProxyWebsocketEventV2 & { queryStringParameters?: Record<string, string | undefined> };

/** The realtime API's `$connect`: a non-2xx answer refuses the WebSocket handshake with that status. */
export const handler = observed(async (event: ConnectEvent) =>
  openSocket(event.requestContext.connectionId, event.queryStringParameters?.ticket, new Date()),
);
