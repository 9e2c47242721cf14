import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { wiring } from '../../infra/wiring';
import { resolve } from '../../shared/http/route-match';

/** The `$default` route: unknown paths are 404; a known path with another method is 404 with `allowedMethods`. */
export const handler = async (event: APIGatewayProxyEventV2) => {
  const { allowedMethods } = resolve(wiring.routes, event.requestContext.http.method, event.rawPath);
  const known = allowedMethods.length > 0;
  return {
    statusCode: 404,
    headers: { 'Content-Type': 'application/json; charset=utf-8', ...(known ? { Allow: allowedMethods.join(', ') } : {}) },
    body: JSON.stringify({
      success: false,
      error: {
        code: 'NOT_FOUND',
        message: known
          ? `${event.requestContext.http.method} is not supported on ${event.rawPath}`
          : `No route for ${event.requestContext.http.method} ${event.rawPath}`,
        ...(known ? { details: { allowedMethods } } : {}),
      },
    }),
  };
};
