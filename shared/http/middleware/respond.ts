import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { StoredResponse } from '../../domain/idempotency/decide';
import { httpErrorOf, type HttpError } from '../errors';
import { log } from '../../log';
import { currentContext } from '../../observability/context';
import { FileResponse } from '../file-response';
import { JsonText } from '../json-text';
import { openState, stateOf, type HttpMiddleware, type RequestState } from '../state';

const JSON_CONTENT = { 'Content-Type': 'application/json; charset=utf-8' };

/** A response as the contract shapes it, before this request's own headers are added (what an idempotency key keeps). */
export const successResponse = (statusCode: number, data: unknown): StoredResponse => ({
  statusCode,
  headers: JSON_CONTENT,
  body: JSON.stringify({ success: true, data }),
});

export const errorResponse = (known: HttpError): StoredResponse => ({
  statusCode: known.status,
  headers: { ...JSON_CONTENT, ...known.headers },
  body: JSON.stringify({ success: false, error: known.body }),
});

/** A success as it goes out: a file as itself, data in the wrapper, a public document as itself (as its text when it is one). */
const outgoing = (statusCode: number, out: unknown, wrap: boolean): StoredResponse => {
  if (out instanceof JsonText) return { statusCode, headers: JSON_CONTENT, body: out.text };
  if (out instanceof FileResponse) {
    return {
      statusCode,
      headers: { 'Content-Type': out.contentType, 'Content-Disposition': `attachment; filename="${out.filename}"` },
      body: out.body,
    };
  }
  return wrap ? successResponse(statusCode, out) : { statusCode, headers: JSON_CONTENT, body: JSON.stringify(out) };
};

/**
 * `response` with this request's id and rate-limit headers. No answer may be sniffed into something a browser
 * renders: a file answer (a CSV of cells customers wrote) is served from the API's own origin.
 */
export const finish = (
  state: RequestState,
  response: StoredResponse,
  extra: Record<string, string> = {},
): APIGatewayProxyStructuredResultV2 => ({
  statusCode: response.statusCode,
  headers: { ...response.headers, 'X-Content-Type-Options': 'nosniff', 'X-Request-Id': state.requestId, ...state.headers, ...extra },
  body: response.body,
});

/**
 * Outermost middleware: opens the request state, wraps successes in `{success, data}` (a public document
 * goes out as itself) and turns every error into the contract's error wrapper. Unknown errors become one
 * logged INTERNAL_ERROR.
 */
export const respond = (successStatus: number, opts: { wrap: boolean } = { wrap: true }): HttpMiddleware => ({
  before: (request) => {
    openState(request.event, {
      requestId: currentContext().requestId ?? request.event.requestContext?.requestId ?? randomUUID(),
      now: new Date(),
      headers: {},
    });
  },
  after: (request) => {
    request.response = finish(stateOf(request), outgoing(successStatus, request.response as unknown, opts.wrap));
  },
  onError: (request) => {
    const state = stateOf(request);
    const known = httpErrorOf(request.error);
    state.errorCode = known ? known.body.code : 'INTERNAL_ERROR';
    if (known) {
      request.response = finish(state, errorResponse(known));
      return;
    }
    log.error('unhandled error', { requestId: state.requestId, route: request.event.routeKey, error: request.error });
    request.response = finish(state, {
      statusCode: 500,
      headers: JSON_CONTENT,
      body: JSON.stringify({
        success: false,
        error: { code: 'INTERNAL_ERROR', message: 'Internal server error', details: { requestId: state.requestId } },
      }),
    });
  },
});
