import type { APIGatewayProxyWebsocketEventV2 } from 'aws-lambda';
import { observed } from '../../shared/observability/invocation';
import { closeSocket } from '../../shared/realtime/sockets';

/** The realtime API's `$disconnect`: the socket closed (either side); it is forgotten. */
export const handler = observed(async (event: APIGatewayProxyWebsocketEventV2) => {
  await closeSocket(event.requestContext.connectionId);
  return { statusCode: 200 };
});
