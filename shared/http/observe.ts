import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { RATE_LIMITS } from '../domain/auth/rate-limit';
import { tenantParts } from '../domain/auth/tenant';
import { log } from '../log';
import { withContext } from '../observability/context';
import { withDeadline } from '../observability/deadline';
import { invocationOf } from '../observability/invocation';
import { metric } from '../observability/metrics';
import { inSubsegment } from '../observability/tracing';
import { peekState, type RequestState } from './state';

type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

const round = (ms: number) => Math.round(ms * 100) / 100;

/** What the access line says of the caller and the outcome: ids and counts only. */
const accessFields = (state: RequestState | undefined) => {
  if (!state) return {};
  const { token, tenant, admission, errorCode } = state;
  const parts = tenant ? tenantParts(tenant) : undefined;
  return {
    workspaceId: parts?.workspaceId,
    livemode: parts ? parts.livemode : token?.livemode,
    tokenId: token?._id,
    rateCategory: admission?.category,
    rateRemaining: admission ? Math.max(0, RATE_LIMITS[admission.category] - admission.used) : undefined,
    errorCode,
    replayed: state.replayed || undefined,
  };
};

const countOutcome = (route: string, status: number, durationMs: number, state: RequestState | undefined) => {
  metric.request(route, status, durationMs);
  if (status === 429) metric.rateLimitRefusal();
  if (status === 401) metric.authFailure();
  if (state?.replayed) metric.idempotentReplay();
};

/** Runs the handler traced with its route and workspace, then writes its access line and its metrics. */
const measured = async (handler: Handler, event: APIGatewayProxyEventV2, context: Context, route: string) => {
  const started = performance.now();
  let status = 500;
  try {
    const response = await inSubsegment(
      `## ${route}`,
      () => handler(event, context),
      () => {
        const tenant = peekState(event)?.tenant;
        return { route, workspace: tenant ? tenantParts(tenant).workspaceId : undefined };
      },
    );
    status = response.statusCode ?? 200;
    return response;
  } finally {
    const durationMs = round(performance.now() - started);
    const state = peekState(event);
    log.info('request', { method: event.requestContext?.http?.method, route, status, durationMs, ...accessFields(state) });
    countOutcome(route, status, durationMs, state);
  }
};

/**
 * The request pipeline as the platform runs it: in the request's log context (its id travels with every
 * event and message the request causes) and with the invocation's deadline known, traced with its route and
 * workspace, and closed by one access line at info level and its metrics.
 */
export const observeRequests =
  (handler: Handler): Handler =>
  (event, context) => {
    const requestId = event.requestContext?.requestId ?? randomUUID();
    const route = event.routeKey ?? '$default';
    return withContext({ ...invocationOf(context), requestId }, () =>
      withDeadline(context, () => measured(handler, event, context, route)),
    );
  };
