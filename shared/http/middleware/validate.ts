import * as z from 'zod';
import { AppError, type FieldError, NotFoundError, ValidationError } from '../../domain/errors';
import { jsonProblems, type JsonProblem } from '../../domain/free-form';
import { inexactNumbers } from '../../domain/written-numbers';
import { fieldErrors, formatPath } from '../validation';
import { header, stateOf, type HttpMiddleware } from '../state';
import { built } from '../../domain/built';

const MAX_BODY_BYTES = 256 * 1024;

export interface InputSchemas {
  body?: z.ZodType;
  query?: z.ZodType;
  params?: z.ZodType;
}

// ignoreBOM keeps a leading byte-order mark in the text, so JSON.parse refuses it (400) as RFC 8259 lets a parser do, instead of the decoder dropping it silently.
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

const parseJsonObject = (raw: Buffer, contentType: string | undefined): { value: unknown; written: JsonProblem[] } => {
  if (!/^application\/json\s*(;|$)/i.test(contentType ?? '')) {
    throw new AppError('BAD_REQUEST', 'Content-Type must be application/json');
  }
  let text: string;
  try {
    text = UTF8.decode(raw);
  } catch {
    throw new AppError('BAD_REQUEST', 'Request body is not valid UTF-8');
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new AppError('BAD_REQUEST', 'Request body is not valid JSON');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new AppError('BAD_REQUEST', 'Request body must be a JSON object');
  }
  return { value, written: inexactNumbers(text) };
};

/** Bodies nest at most this deep: far past any route's own shape and the free-form values inside it. */
const MAX_BODY_DEPTH = 32;

/** What a route declares no body or query for accepts: nothing, or an empty object; any field in it is unknown (422). */
const NOTHING = /* @__PURE__ */ built(() => z.strictObject({}));

/** What no route's schema could take: numbers changed by parsing or not stored exactly, ill-formed text, deep nesting; one entry a path. */
const storageProblems = (input: unknown, written: JsonProblem[] = []) => {
  const byPath = new Map<string, string>();
  for (const p of [...written, ...jsonProblems(input, { maxDepth: MAX_BODY_DEPTH })])
    if (!byPath.has(formatPath(p.path))) byPath.set(formatPath(p.path), p.message);
  return [...byPath].map(([path, message]) => ({ path, message }));
};

const check = <S extends z.ZodType>(schema: S, input: unknown, written?: JsonProblem[], conflicts: FieldError[] = []): z.output<S> => {
  const problems = storageProblems(input, written);
  if (problems.length > 0) throw new ValidationError(problems);
  const result = schema.safeParse(input);
  if (result.success && conflicts.length === 0) return result.data;
  const { missing, errors } = result.success ? { missing: false, errors: [] } : fieldErrors(result.error, input);
  const paths = new Set(errors.map((e) => e.path));
  throw new ValidationError([...errors, ...conflicts.filter((c) => !paths.has(c.path))], missing ? 'BAD_REQUEST' : 'VALIDATION_ERROR');
};

/**
 * `cursor` and an explicit `page` together are refused (422 on `page`): the cursor already says where the
 * page starts, and either one silently winning would answer a page the client did not ask for.
 */
const pageWithCursor = (query: Record<string, string | undefined>): FieldError[] =>
  query.cursor !== undefined && query.page !== undefined
    ? [{ path: 'page', message: 'Give either page or cursor, not both: a cursor already says where the page starts' }]
    : [];

/** A list's query (it declares `cursor`) may not give `cursor` and `page` together. */
const pagingConflicts = (schema: z.ZodType | undefined, query: Record<string, string | undefined>): FieldError[] =>
  schema instanceof z.ZodObject && 'cursor' in schema.shape ? pageWithCursor(query) : [];

/**
 * Size (413), content type and JSON (400), then the route's zod schemas (400 missing / 422 invalid). A body,
 * even on a route that takes none, must be a JSON object; query parameters a route does not declare are 422.
 */
export const validate = (schemas: InputSchemas): HttpMiddleware => ({
  before: (request) => {
    const { event } = request;
    const raw = event.body ? Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8') : undefined;
    if (raw && raw.length > MAX_BODY_BYTES) {
      throw new AppError('PAYLOAD_TOO_LARGE', `Request body exceeds ${MAX_BODY_BYTES} bytes`, { limitBytes: MAX_BODY_BYTES });
    }
    const sent = raw !== undefined && raw.length > 0;
    if (schemas.body && !sent) throw new AppError('BAD_REQUEST', 'Request body is required');
    const parsed = sent ? parseJsonObject(raw, header(event, 'content-type')) : { value: {}, written: [] };
    const body = check(schemas.body ?? NOTHING, parsed.value, parsed.written);
    const rawQuery = event.queryStringParameters ?? {};
    const query = check(schemas.query ?? NOTHING, rawQuery, [], pagingConflicts(schemas.query, rawQuery));
    let params: unknown = {};
    if (schemas.params) {
      const parsed = schemas.params.safeParse(event.pathParameters ?? {});
      if (!parsed.success) throw new NotFoundError('Resource');
      params = parsed.data;
    }
    stateOf(request).input = { body, query, params };
  },
});
