import type { ErrorCode } from '../../../shared/domain/errors';
import { viewFixtures } from './fixtures';
import { computedFixtures } from './reports';
import { eventEnvelope } from './events';
import { answers, fieldValues, files, requests } from './fields';
import { sampler, type JsonSchema } from './sample';
import { shareExamples } from './share';

/**
 * Gives the document realistic examples, all drawn from one fictional workspace (`fixtures.ts`): every
 * operation's JSON success answer and request body, every webhook event's payload and every error answer.
 * `test/unit/docs/openapi-examples.test.ts` holds each one to its schema.
 */

type Json = Record<string, unknown>;
interface Media {
  schema?: JsonSchema;
  example?: unknown;
  examples?: Record<string, { summary?: string; value: unknown }>;
}
interface Operation {
  requestBody?: { content: Record<string, Media> };
  responses?: Record<string, { content?: Record<string, Media> }>;
}
interface Document {
  paths?: Record<string, Record<string, Operation>>;
  webhooks?: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, JsonSchema>; responses?: Record<string, { content?: Record<string, Media> }> };
}

const ERRORS: Record<ErrorCode, { message: string; details?: Json }> = {
  BAD_REQUEST: { message: 'Request body is not valid JSON' },
  UNAUTHORIZED: { message: 'Invalid API token' },
  FORBIDDEN: { message: 'This API token lacks the required scope inbox:write', details: { requiredScope: 'inbox:write' } },
  WORKSPACE_ACCESS_DENIED: { message: 'This API token has no access to the requested workspace' },
  NOT_FOUND: { message: 'Conversation not found' },
  CONFLICT: {
    message: 'Idempotency-Key "order-4521-reply" was already used for a different request (method, path or body)',
    details: { idempotencyKey: 'order-4521-reply' },
  },
  PAYLOAD_TOO_LARGE: { message: 'Request body exceeds 262144 bytes', details: { limitBytes: 262144 } },
  VALIDATION_ERROR: {
    message: 'Validation failed: email: Invalid email address',
    details: { errors: [{ path: 'email', message: 'Invalid email address' }] },
  },
  TOO_MANY_REQUESTS: { message: 'Rate limit exceeded; retry after 157 seconds', details: { retryAfter: 157 } },
  INTERNAL_ERROR: { message: 'Internal server error', details: { requestId: 'c0a8e3f1-5b7d-4e2a-9f61-2d8b4c7e9a10' } },
};

const errorExample = (code: ErrorCode) => ({ success: false, error: { code, ...ERRORS[code] } });

/** A request body's fixture: the answer's entities (`{lead}` → the lead) and the answer's own fields. */
const requestHint = (answer: unknown): Json => {
  const data = (answer as { data?: unknown } | undefined)?.data;
  if (data === null || typeof data !== 'object') return {};
  const entities = Object.values(data).filter((v) => v !== null && typeof v === 'object' && !Array.isArray(v));
  return Object.assign({}, ...entities, data) as Json;
};

export const addExamples = <D extends object>(document: D): D => {
  const doc = document as Document;
  const sample = sampler({
    schemas: doc.components?.schemas ?? {},
    views: {
      ...viewFixtures,
      ...computedFixtures,
      Event: eventEnvelope('inbox.conversation.closed'),
      RealtimeTicket: {
        ticket: 'rt_Xq3v9LmT2pK8sWd4Hn6Yb1Zc7Rf5Gj0Ae9Uo3Ii2Pk4',
        url: 'wss://realtime.parley.example/realtime?ticket=rt_Xq3v9LmT2pK8sWd4Hn6Yb1Zc7Rf5Gj0Ae9Uo3Ii2Pk4',
        expiresAt: '2026-03-12T15:01:00.000Z',
      },
    },
    fields: fieldValues,
  });
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(item)) {
      const at = `${method.toUpperCase()} ${path}`;
      let answer: unknown;
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        if (!status.startsWith('2')) continue;
        for (const [type, media] of Object.entries(response.content ?? {})) {
          if (type === 'application/json') answer = media.example = sample(media.schema!, answers[at], `${at} ${status}`);
          else if (files[type]) media.example = files[type];
          else throw new Error(`No example file for ${type} (${at}): give one in infra/docs/examples`);
        }
      }
      const body = op.requestBody?.content['application/json'];
      if (body?.schema) body.example = sample(body.schema, requests[at] ?? requestHint(answer), `${at} body`);
    }
  }
  for (const [type, item] of Object.entries(doc.webhooks ?? {})) {
    const body = item.post?.requestBody?.content['application/json'];
    if (body?.schema) body.example = sample(body.schema, eventEnvelope(type), `webhook ${type}`);
  }
  for (const response of Object.values(doc.components?.responses ?? {})) {
    const json = response.content?.['application/json'];
    const codes = ((json?.schema?.$ref &&
      doc.components?.schemas?.[json.schema.$ref.split('/').pop()!]?.properties?.error?.properties?.code?.enum) ??
      []) as ErrorCode[];
    if (!json || codes.length === 0) continue;
    if (codes.length === 1) json.example = errorExample(codes[0]!);
    else json.examples = Object.fromEntries(codes.map((code) => [code, { summary: code, value: errorExample(code) }]));
  }
  return shareExamples(document);
};
