import type { APIGatewayProxyWebsocketEventV2 } from 'aws-lambda';
import { observed } from '../../shared/observability/invocation';
import { receiveMessage } from '../../shared/realtime/sockets';

/** The realtime API's `$default`: every client message; the answer's body is the frame sent back (a route response). */
export const handler = observed(async (event: APIGatewayProxyWebsocketEventV2) =>
  receiveMessage(event.requestContext.connectionId, event.body, new Date()),
);
