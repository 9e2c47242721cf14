import { resolvedResponse } from '../../infra/docs/components';
import type { OpenApiDocument } from '../../infra/docs/openapi';

/** The response headers whose presence the document states, and the check compares (Content-Type apart). */
const CHECKED_HEADERS = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'Retry-After',
  'Idempotent-Replayed',
  'X-Request-Id',
] as const;

/** An answer as any client saw it: fetch's `Headers`, or node's lower-cased header record. */
export interface Answer {
  status: number;
  headers: Headers | Record<string, string | string[] | undefined>;
  /** The body's length, to tell "no body" from a body without a Content-Type. */
  bodyLength?: number;
}

interface DocumentedResponse {
  headers?: Record<string, { required?: boolean }>;
  content?: Record<string, unknown>;
}

const headerOf = (headers: Answer['headers'], name: string): string | undefined => {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(', ') : value;
};

const mediaType = (contentType: string | undefined) => contentType?.split(';')[0]?.trim().toLowerCase() || undefined;

/**
 * How `answer` to `method pathTemplate` differs from what the document lists for that operation: a status
 * it does not list, a checked header present that it does not list for that status, or listed as required
 * and absent, and a content type it does not list. Empty when they agree.
 */
export const conformance = (document: OpenApiDocument, method: string, pathTemplate: string, answer: Answer): string[] => {
  const operation = (
    document.paths?.[pathTemplate] as Record<string, { responses?: Record<string, Record<string, unknown>> }> | undefined
  )?.[method.toLowerCase()];
  if (!operation) return [`${method} ${pathTemplate} is not in the document`];
  const documented: DocumentedResponse | undefined = resolvedResponse(
    document,
    operation.responses?.[String(answer.status)] ?? operation.responses?.default,
  );
  if (!documented) return [`status ${answer.status} is not documented (documented: ${Object.keys(operation.responses ?? {}).join(', ')})`];
  const out: string[] = [];
  const listed = new Map(Object.entries(documented.headers ?? {}).map(([name, h]) => [name.toLowerCase(), h]));
  for (const name of CHECKED_HEADERS) {
    const present = headerOf(answer.headers, name) !== undefined;
    const doc = listed.get(name.toLowerCase());
    if (present && !doc) out.push(`${answer.status} carries ${name}, which the document does not list for it`);
    if (!present && doc?.required) out.push(`${answer.status} lacks ${name}, which the document requires`);
  }
  const type = mediaType(headerOf(answer.headers, 'content-type'));
  const types = Object.keys(documented.content ?? {}).map((t) => mediaType(t)!);
  if (types.length === 0 ? type !== undefined || (answer.bodyLength ?? 0) > 0 : !type || !types.includes(type)) {
    out.push(`${answer.status} answers content type ${type ?? '(none)'}, the document lists ${types.join(', ') || 'no body'}`);
  }
  return out;
};
