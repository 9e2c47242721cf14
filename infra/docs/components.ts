type Json = Record<string, unknown>;
interface Document {
  paths?: Record<string, Record<string, unknown>>;
  components?: Record<string, Record<string, unknown>>;
}
interface Response {
  headers?: Record<string, Json>;
  content?: Record<string, { schema?: { $ref?: string } }>;
}

const RESPONSES = '#/components/responses/';
const HEADERS = '#/components/headers/';

const operationsOf = (doc: Document) =>
  Object.values(doc.paths ?? {}).flatMap((item) => Object.values(item) as { responses?: Record<string, Json> }[]);

/** `X-RateLimit-Limit` or `X-RateLimit-Limit.required`: a header as one status of one operation lists it. */
const headerName = (name: string, header: Json) => (header.required ? `${name}.required` : name);

/**
 * The error answer's name: its body's (`NotFoundError` → `NotFound`) and what sets its headers apart, e.g.
 * `ValidationErrorKeyed` where an `Idempotency-Key` can replay it, `BadRequestPublic` on the public document.
 */
const responseName = (status: string, response: Response): string => {
  const body =
    response.content?.['application/json']?.schema?.$ref
      ?.split('/')
      .pop()
      ?.replace(/Error$/, '') ?? `Status${status}`;
  const headers = response.headers ?? {};
  const rate = headers['X-RateLimit-Limit'];
  const variant = [
    !rate && status !== '401' ? 'Public' : '',
    rate && !rate.required && status !== '429' && status !== '500' ? 'AfterToken' : '',
    headers['Idempotent-Replayed'] ? 'Keyed' : '',
  ].join('');
  return `${body}${variant}`;
};

/**
 * Moves the answers many operations share (every error answer) and every response header into
 * `components`, referred to with `$ref`: the document states each once, and a reader or a generated client
 * sees one named error answer instead of a copy per operation.
 */
export const shareComponents = <D extends object>(document: D): D => {
  const doc = document as Document;
  const headers: Record<string, Json> = {};
  const responses: Record<string, Json> = {};
  const shareHeaders = (response: Response) => {
    for (const [name, header] of Object.entries(response.headers ?? {})) {
      const id = headerName(name, header);
      headers[id] ??= header;
      response.headers![name] = { $ref: `${HEADERS}${id}` };
    }
  };
  for (const op of operationsOf(doc)) {
    for (const [status, response] of Object.entries(op.responses ?? {})) {
      if (status.startsWith('2')) {
        shareHeaders(response as Response);
        continue;
      }
      const name = responseName(status, response as Response);
      const text = JSON.stringify(response);
      if (responses[name] && JSON.stringify(responses[name]) !== text)
        throw new Error(`Two different ${status} answers would share the component name ${name}`);
      responses[name] = response;
      op.responses![status] = { $ref: `${RESPONSES}${name}` };
    }
  }
  for (const response of Object.values(responses)) shareHeaders(response as Response);
  doc.components = { ...doc.components, responses, headers };
  return document;
};

const refTarget = (doc: Document, ref: string, prefix: string) =>
  doc.components?.[prefix.split('/')[2]!]?.[ref.slice(prefix.length)] as Json;

/** The answer `response` stands for, with its headers written out: a `$ref` into `components` resolved. */
export const resolvedResponse = (document: object, response: Json | undefined): Response | undefined => {
  const doc = document as Document;
  if (!response) return undefined;
  const target = (typeof response.$ref === 'string' ? refTarget(doc, response.$ref, RESPONSES) : response) as Response;
  const headers = Object.fromEntries(
    Object.entries(target.headers ?? {}).map(([name, h]) => [name, typeof h.$ref === 'string' ? refTarget(doc, h.$ref, HEADERS) : h]),
  );
  return { ...target, headers };
};
