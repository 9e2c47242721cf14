import { OpenApiGeneratorV31, OpenAPIRegistry, type ResponseConfig, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import * as z from 'zod';
import { ERROR_CODES, type ErrorCode } from '../../shared/domain/errors';
import { RATE_LIMITS, rateCategory } from '../../shared/domain/auth/rate-limit';
import { eventCatalog, pingEvent } from '../../shared/events/catalog';
import { isEventType } from '../../shared/events/types';
import { errorStatus } from '../../shared/http/errors';
import { IDEMPOTENCY_KEY_PATTERN } from '../../shared/domain/idempotency/key';
import type { RouteHandler } from '../../functions/wiring/route-handlers';
import { codeSamples } from './code-samples';
import { shareComponents } from './components';
import { addExamples } from './examples';
import { describeNodeConfigs } from './node-configs';
import { documentTags, tagOf } from './tags';

/**
 * The OpenAPI 3.1 description of the API, built from the wiring (paths, summaries, public routes) and
 * what each handler declares (scope, body, query, params, status, response), plus the event catalog as
 * `webhooks`. Nothing here restates a route: a route added to the wiring appears on its own.
 */

const API_VERSION = '1.0.0';

const area = (r: RouteHandler) => r.route.handler.split('/')[2]!;

/** The errors a route can answer: the pipeline's, from what the route declares (docs/guide/conventions.md), and its handler's own (`errors`). */
export const pipelineErrors = ({ route, scope, spec }: RouteHandler): ErrorCode[] => {
  // Any request may carry a body: malformed (400), over 256 KB (413), or fields where the route takes none (422).
  const codes = new Set<ErrorCode>(['INTERNAL_ERROR', 'BAD_REQUEST', 'PAYLOAD_TOO_LARGE', 'VALIDATION_ERROR', ...(spec.errors ?? [])]);
  if (spec.public) return ERROR_CODES.filter((c) => codes.has(c));
  codes.add('UNAUTHORIZED').add('TOO_MANY_REQUESTS');
  const inWorkspace = spec.workspace !== false;
  if (inWorkspace) codes.add('BAD_REQUEST').add('WORKSPACE_ACCESS_DENIED');
  if (scope) codes.add('FORBIDDEN');
  // Unknown ids, and ids of another workspace, are one answer.
  if (route.path.includes('{')) codes.add('NOT_FOUND');
  // An Idempotency-Key reused with another body, or still in flight.
  if (inWorkspace && (route.method === 'POST' || route.method === 'PATCH')) codes.add('CONFLICT');
  return ERROR_CODES.filter((c) => codes.has(c));
};

const pascal = (code: string) => code.toLowerCase().replace(/(^|_)(\w)/g, (_, __, c: string) => c.toUpperCase());

/** The error wrapper narrowed to the codes one status can carry, registered once as a component (`…Error`). */
const errorBodies = (registry: OpenAPIRegistry) => {
  const made = new Set<string>();
  return (codes: readonly ErrorCode[]) => {
    const name = `${codes.map(pascal).join('Or')}Error`;
    if (!made.has(name)) {
      made.add(name);
      registry.registerComponent('schemas', name, {
        type: 'object',
        required: ['success', 'error'],
        properties: {
          success: { type: 'boolean', enum: [false] },
          error: {
            type: 'object',
            required: ['code', 'message'],
            properties: {
              code: { type: 'string', enum: [...codes] },
              message: { type: 'string' },
              details: { type: 'object', additionalProperties: true },
            },
          },
        },
      });
    }
    return { $ref: `#/components/schemas/${name}` };
  };
};

type ErrorBody = ReturnType<ReturnType<typeof errorBodies>>;

const HEADERS = {
  'X-RateLimit-Limit': { description: 'Requests allowed in the current 15-minute window for this category', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'Requests left in the current window', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'Unix time (seconds) at which the window resets', schema: { type: 'integer' } },
  'X-Request-Id': { description: 'The request id, also logged; quote it when reporting a problem', schema: { type: 'string' } },
  'Retry-After': { description: 'Seconds to wait before trying again', schema: { type: 'integer' } },
  'Idempotent-Replayed': {
    description: 'On an answer replayed for a repeated Idempotency-Key',
    schema: { type: 'string', enum: ['true'] },
  },
  'Content-Disposition': { description: 'The file\'s name: `attachment; filename="…"`', schema: { type: 'string' } },
} as const;

type HeaderName = keyof typeof HEADERS;

const RATE_HEADERS: HeaderName[] = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];

/** Whether POST/PATCH of the route honour `Idempotency-Key`. */
const keyed = ({ route, spec }: RouteHandler) =>
  !spec.public && spec.workspace !== false && (route.method === 'POST' || route.method === 'PATCH');

/** Statuses a key keeps and replays: a success, and a 4xx from validation or the handler (docs/guide/idempotency.md). */
const REPLAYABLE = new Set([400, 404, 409, 413, 422]);

/**
 * The headers an answer of `status` carries (`required` where every such answer has them): its request id;
 * the token's rate-limit window once the token is known, so not on a 401 (no token; unless the handler answers
 * one too) and not on a 429 or 500 that came before the token was (the guessing slowdown, a failed lookup); `Retry-After` on a 429 and on a 409
 * for a key still in flight; `Idempotent-Replayed` on what a key can replay.
 */
const responseHeaders = (r: RouteHandler, status: number): Record<string, { description: string; schema: object; required?: true }> => {
  const required: HeaderName[] = ['X-Request-Id'];
  const optional: HeaderName[] = [];
  // A 401 the handler answers (a bad provider signature) comes after the token was known.
  const handler401 = r.spec.errors?.includes('UNAUTHORIZED');
  if (!r.spec.public && (status !== 401 || handler401))
    (status === 429 || status === 500 || status === 401 ? optional : required).push(...RATE_HEADERS);
  if (status === 429) required.push('Retry-After');
  if (keyed(r) && status === 409) optional.push('Retry-After');
  if (keyed(r) && (status < 300 || REPLAYABLE.has(status))) optional.push('Idempotent-Replayed');
  if (status < 300 && r.spec.produces) required.push('Content-Disposition');
  return Object.fromEntries([
    ...required.map((n) => [n, { ...HEADERS[n], required: true as const }]),
    ...optional.map((n) => [n, HEADERS[n]]),
  ]);
};

const DESCRIPTIONS: Record<ErrorCode, string> = {
  BAD_REQUEST: 'Malformed JSON, a missing Content-Type or required field, or a missing or ill-formed x-workspace-id',
  UNAUTHORIZED: 'Token missing, invalid, expired or revoked',
  FORBIDDEN: 'The token lacks the required scope (`details.requiredScope`)',
  WORKSPACE_ACCESS_DENIED: 'The token has no access to the workspace',
  NOT_FOUND: 'Unknown id, or an id of another workspace',
  CONFLICT: 'A state conflict, or an Idempotency-Key reused with another body',
  PAYLOAD_TOO_LARGE: 'The body is over 256 KB',
  VALIDATION_ERROR: 'A field is present but invalid (`details.errors[] {path, message}`)',
  TOO_MANY_REQUESTS: 'Rate limit exceeded; Retry-After holds the seconds to wait',
  INTERNAL_ERROR: 'Unexpected failure; `details.requestId` names the request',
};

const errorResponses = (r: RouteHandler, errorBody: (codes: readonly ErrorCode[]) => ErrorBody): Record<string, ResponseConfig> => {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of pipelineErrors(r)) byStatus.set(errorStatus[code], [...(byStatus.get(errorStatus[code]) ?? []), code]);
  return Object.fromEntries(
    [...byStatus].map(([status, codes]) => [
      String(status),
      {
        description: codes.map((c) => `${c}: ${DESCRIPTIONS[c]}`).join('; '),
        headers: responseHeaders(r, status),
        content: { 'application/json': { schema: errorBody(codes) } },
      } as ResponseConfig,
    ]),
  );
};

const successResponse = (r: RouteHandler): ResponseConfig => {
  const headers = responseHeaders(r, r.spec.status ?? 200);
  if (r.spec.public) {
    return {
      description: 'The document itself (no success wrapper)',
      headers,
      content: { 'application/json': { schema: r.spec.response as z.ZodType } },
    } as ResponseConfig;
  }
  if (r.spec.produces) {
    return {
      description: `Success: the file itself (${r.spec.produces})`,
      headers,
      content: { [r.spec.produces]: { schema: z.string() } },
    } as ResponseConfig;
  }
  const data = r.spec.response as z.ZodType;
  return {
    description: 'Success: the contract wrapper `{success: true, data}`',
    headers,
    content: { 'application/json': { schema: z.object({ success: z.literal(true), data }) } },
  } as ResponseConfig;
};

const zodObject = (schema: unknown) => (schema instanceof z.ZodObject ? schema : undefined);

const operation = (r: RouteHandler, errorBody: (codes: readonly ErrorCode[]) => ErrorBody): RouteConfig => {
  const { route, scope, spec } = r;
  const category = rateCategory(route.method, route.path);
  const who = spec.public
    ? 'Public: no token, no workspace, no rate limit.'
    : `Scope: \`${scope ?? 'any valid token'}\`. Rate limit: ${category} (${RATE_LIMITS[category]} requests per 15 minutes per token).`;
  return {
    method: route.method.toLowerCase() as RouteConfig['method'],
    path: route.path,
    operationId: route.handler
      .replace(/^functions\/http\//, '')
      .replace(/\.ts$/, '')
      .replace(/[/-](\w)/g, (_, c: string) => c.toUpperCase()),
    summary: route.summary,
    description: who,
    tags: [tagOf(area(r))],
    'x-codeSamples': codeSamples(r),
    security: spec.public ? [] : [{ bearerAuth: scope ? [scope] : [], ...(spec.workspace === false ? {} : { workspaceId: [] }) }],
    ...(spec.public ? {} : { 'x-required-scope': scope, 'x-rate-limit-category': category }),
    request: {
      ...(zodObject(spec.params) ? { params: zodObject(spec.params) } : {}),
      ...(zodObject(spec.query) ? { query: zodObject(spec.query) } : {}),
      ...(keyed(r)
        ? {
            headers: z.object({
              'Idempotency-Key': z
                .string()
                .regex(IDEMPOTENCY_KEY_PATTERN)
                .optional()
                .describe('Makes a retry safe: the first response is kept and replayed'),
            }),
          }
        : {}),
      ...(spec.body ? { body: { required: true, content: { 'application/json': { schema: spec.body as z.ZodType } } } } : {}),
    },
    responses: { [String(spec.status ?? 200)]: successResponse(r), ...errorResponses(r, errorBody) },
  };
};

const signatureHeaders = z.object({
  'webhook-id': z.string().describe('The event id (Standard Webhooks)'),
  'webhook-timestamp': z.string().describe('Unix seconds when this attempt was signed'),
  'webhook-signature': z.string().describe('`v1,<base64 HMAC-SHA256(secret, "<id>.<timestamp>.<body>")>`'),
  'X-Webhook-Signature': z.string().describe('`sha256=<hex HMAC-SHA256(secret, body)>`'),
  'X-Webhook-Event': z.string(),
  'X-Webhook-Delivery': z.string(),
  'X-Webhook-Attempt': z.string(),
});

type CatalogEvent = { type: string; status: string; description: string; data: z.ZodType };

/** What a receiver gets for one event type: the envelope with that type's `data`. */
export const eventEnvelope = (event: CatalogEvent) =>
  z.object({
    eventId: z.string(),
    eventType: z.literal(event.type),
    workspaceId: z.string(),
    livemode: z.boolean(),
    occurredAt: z.string(),
    apiVersion: z.literal('v1'),
    data: event.data,
    changes: z
      .record(z.string(), z.tuple([z.unknown(), z.unknown()]))
      .optional()
      .describe('On updates: field → [before, after]'),
    causedBy: z.record(z.string(), z.unknown()).optional().describe('The workflow run that caused the event, and the chain depth'),
  });

/** One entry per event type: the envelope with that type's `data` (planned types are marked, they never fire yet). */
const webhook = (event: CatalogEvent): RouteConfig => ({
  method: 'post',
  path: event.type,
  operationId: `event_${event.type.replaceAll('.', '_')}`,
  summary: event.type,
  description: `${event.description}${event.status === 'planned' ? ' (planned: subscribable, not emitted yet)' : ''}${isEventType(event.type) ? '' : ' Not subscribable.'}`,
  tags: [tagOf(event.type.split('.')[0]!)],
  // Parley calls the receiver; the receiver checks the signature headers, not a token.
  security: [],
  'x-event-status': event.status,
  'x-subscribable': isEventType(event.type),
  request: {
    headers: signatureHeaders,
    body: {
      required: true,
      content: {
        'application/json': {
          schema: eventEnvelope(event),
        },
      },
    },
  },
  responses: {
    '200': { description: 'Any 2xx acknowledges the delivery; anything else (or no answer in 10 s) is retried' },
    '410': { description: 'Gone: the subscription is deactivated and no retry is scheduled' },
  },
});

export const buildOpenApi = (handlers: readonly RouteHandler[]) => {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    description: 'An API token (`sk_live_…` or `sk_test_…`). The operation lists the scope it requires; `admin:all` grants every scope.',
  });
  registry.registerComponent('securitySchemes', 'workspaceId', {
    type: 'apiKey',
    in: 'header',
    name: 'x-workspace-id',
    description:
      'The 24-character hex id of the workspace the request acts in (400 when missing or ill-formed, 403 when the token may not access it).',
  });
  const errorBody = errorBodies(registry);
  for (const r of handlers) registry.registerPath(operation(r, errorBody));
  for (const event of [...eventCatalog, pingEvent]) registry.registerWebhook(webhook(event));
  const keys = [...handlers.map(area), ...[...eventCatalog, pingEvent].map((e) => e.type.split('.')[0]!)];
  const document = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Parley API',
      version: API_VERSION,
      description:
        'Workspace-based customer messaging and CRM. Every request carries `Authorization: Bearer <token>` and `x-workspace-id`.',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Parley' },
    },
    servers: [{ url: '/', description: 'This deployment' }],
    ...documentTags(keys.map(tagOf)),
  });
  return addExamples(describeNodeConfigs(shareComponents(document)));
};

export type OpenApiDocument = ReturnType<typeof buildOpenApi>;
