import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { httpErrorOf } from '../errors';
import { log } from '../../log';
import { openState, stateOf, type HttpMiddleware, type RequestState } from '../state';

const json = (
  state: RequestState,
  statusCode: number,
  body: unknown,
  extra: Record<string, string> = {},
): APIGatewayProxyStructuredResultV2 => ({
  statusCode,
  headers: { 'Content-Type': 'application/json; charset=utf-8', 'X-Request-Id': state.requestId, ...state.headers, ...extra },
  body: JSON.stringify(body),
});

/**
 * Outermost middleware: opens the request state, wraps successes in `{success, data}` and turns every
 * error into the contract's error wrapper. Unknown errors become one logged INTERNAL_ERROR.
 */
export const respond = (successStatus: number): HttpMiddleware => ({
  before: (request) => {
    openState(request.event, {
      requestId: request.event.requestContext?.requestId ?? randomUUID(),
      now: new Date(),
      headers: {},
    });
  },
  after: (request) => {
    request.response = json(stateOf(request), successStatus, { success: true, data: request.response });
  },
  onError: (request) => {
    const state = stateOf(request);
    const known = httpErrorOf(request.error);
    if (known) {
      request.response = json(state, known.status, { success: false, error: known.body }, known.headers);
      return;
    }
    log.error('unhandled error', { requestId: state.requestId, route: request.event.routeKey, error: request.error });
    request.response = json(state, 500, {
      success: false,
      error: { code: 'INTERNAL_ERROR', message: 'Internal server error', details: { requestId: state.requestId } },
    });
  },
});
