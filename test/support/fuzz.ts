import { Agent, request } from 'node:http';
import fc from 'fast-check';
import { wiring } from '../../functions/wiring';
import type { Scope } from '../../shared/domain/auth/scopes';
import { RATE_LIMITS, rateCategory, type RateCategory } from '../../shared/domain/auth/rate-limit';
import { errorStatus } from '../../shared/http/errors';
import { resolve as resolveRoute } from '../../shared/http/route-match';
import {
  RawJson,
  breaksStorage,
  hostileString,
  hostileValue,
  jsonSchemaOf,
  mutatedArb,
  objectOf,
  toJsonText,
  validArb,
  type DeriveOptions,
  type IdSource,
  type JsonSchema,
} from './json-arbitraries';
import type { Client } from './api';
import { factoryFor, type ResourceFactory } from './resource-factories';
import type { LoadedRoute } from './routes';
import { checkJsonAnswer } from './response-gate';
import { tokenFor } from './tenants';

/**
 * Schema fuzzing shared by the `npm test` gate (test/gates/schema-fuzz.test.ts) and `npm run fuzz`
 * (test/fuzz/run.ts): request arbitraries per route, a raw HTTP sender, the contract oracle and a pool
 * of fresh tokens that keeps every request inside the real rate limits.
 */

export interface FuzzCase {
  /** What kind of input this is, for reports: `body:mutated`, `path:hostile`, `query:raw`… */
  kinds: string[];
  method: string;
  /** Path and query string, percent-encoded as sent. */
  target: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** The answer the contract fixes for this input, when it does. */
  expect?: { status: number; code: string; why: string };
  /** A query parameter the answer must refuse by name (400 or 422 listing it), when nothing else is refused first. */
  names?: string;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

// ---------------------------------------------------------------------------------------------------------
// Encoding

/** Percent-encodes every byte of the UTF-8 form except RFC 3986's unreserved characters (lone surrogates become U+FFFD). */
const percentEncode = (s: string): string =>
  encodeURIComponent(s.toWellFormed()).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** Path segments no encoder would produce: broken escapes, overlong UTF-8, encoded CESU surrogates, dot segments. */
const RAW_SEGMENTS = [
  '%',
  '%zz',
  '%E0%A4%A',
  '%ED%A0%80',
  '%C0%AF',
  '%00',
  '%FF%FE',
  '..',
  '.',
  '%2e%2e',
  '%2F',
  '%252F',
  'bulk',
  'event-types',
  'merge',
  'a'.repeat(3000),
  '000000000000000000000000',
  'FFFFFFFFFFFFFFFFFFFFFFFF',
  '0123456789abcdef0123456',
];
const RAW_QUERIES = [
  '%',
  '%zz=1',
  'a=%ED%A0%80',
  '=1',
  '&&&',
  'page=1&page=2',
  'limit=1e308',
  'limit=1e-320',
  'page=-0',
  'page=9007199254740993',
  'limit=0x10',
  'limit=%2010',
  'limit=5.0',
  'page=Infinity',
  'page=NaN',
  'page=%00',
  'limit=100%00',
  '__proto__=1',
  '__proto__[x]=1',
  'constructor=x&prototype=y',
  'hasOwnProperty=1',
  `cursor=${'A'.repeat(3000)}`,
  'cursor=eyJwayI6IldTI3gifQ',
  'cursor=%7B%7D',
  // Well-formed base64url around JSON of every wrong shape: cursors are decoded before they are checked.
  ...[
    '{}',
    'null',
    '[]',
    '"s"',
    '1e308',
    '{"pk":"WS#x","sk":1}',
    '{"pk":null,"sk":{}}',
    '{"__proto__":{"pk":"x"}}',
    '{"gsi1pk":"WS#000000000000000000000000#TAGS","gsi1sk":"\\ud800","pk":"x","sk":"y"}',
    `{"pk":"${'p'.repeat(1500)}"}`,
  ].map((json) => `cursor=${Buffer.from(json).toString('base64url')}`),
  'status=open&status=closed',
  'tagId[]=1',
];

// ---------------------------------------------------------------------------------------------------------
// Case arbitraries

const pick = <T>(weighted: [number, fc.Arbitrary<T>][]): fc.Arbitrary<T> =>
  fc.oneof(...weighted.filter(([w]) => w > 0).map(([weight, arbitrary]) => ({ weight, arbitrary })));

/** Query values as a client would write them: arrays repeat the key, objects use brackets, the rest is text. */
const toQueryString = (value: unknown): string => {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return `q=${percentEncode(toJsonText(value))}`;
  const parts: string[] = [];
  for (const [k, v] of Object.entries(value)) {
    if (v === undefined) continue;
    if (Array.isArray(v))
      for (const item of v) parts.push(`${percentEncode(k)}=${percentEncode(typeof item === 'string' ? item : toJsonText(item))}`);
    else if (v !== null && typeof v === 'object' && !(v instanceof RawJson)) {
      for (const [sk, sv] of Object.entries(v))
        parts.push(`${percentEncode(`${k}[${sk}]`)}=${percentEncode(typeof sv === 'string' ? sv : toJsonText(sv))}`);
    } else parts.push(`${percentEncode(k)}=${percentEncode(typeof v === 'string' ? v : toJsonText(v))}`);
  }
  return parts.join('&');
};

const JSON_TYPES = ['application/json', 'application/json; charset=utf-8', 'Application/JSON', 'application/json;charset=UTF-8'];
const WRONG_TYPES = [
  undefined,
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/jsonx',
  'application/xml',
  'text/json',
  '',
];
const MALFORMED_JSON = [
  '{',
  '{"a":}',
  "{'a':1}",
  '{"a":1,}',
  'nul',
  '{"a":1}x',
  '\u0000',
  '{"a":"\\ud800"',
  'NaN',
  '{"a":NaN}',
  '[1,]',
  '{"a" 1}',
  '\uFEFF{}',
  '{"a":"\u0001"}',
  '{"a":1e}',
  '{"\\u"}',
  '}{',
  '{"a":"b"}}',
];

interface BodyPart {
  kind: string;
  body?: Buffer;
  contentType?: string;
  expect?: FuzzCase['expect'];
}

const jsonBody = (kind: string, value: unknown, contentType: string | undefined, expect?: FuzzCase['expect']): BodyPart => {
  const body = Buffer.from(toJsonText(value), 'utf8');
  // Size is checked before anything about the body's content.
  return { kind, body, contentType, expect: expect && body.length > MAX_BODY_BYTES ? TOO_LARGE : expect };
};

const MAX_BODY_BYTES = 256 * 1024;

/** Whether the JSON text of `v` is an object (raw deep nesting included). */
const isObjectJson = (v: unknown) =>
  v instanceof RawJson ? v.text.startsWith('{') : v !== null && typeof v === 'object' && !Array.isArray(v);
const isPlainObject = (v: unknown) => v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof RawJson);

const NOT_AN_OBJECT = { status: 400, code: 'BAD_REQUEST', why: 'a body that is not a JSON object is 400' } as const;
const UNSTORABLE = {
  status: 422,
  code: 'VALIDATION_ERROR',
  why: 'a body with a number the storage cannot hold exactly, an unpaired surrogate or nesting past 32 is 422',
} as const;

/** What the contract fixes for a JSON body sent as JSON: 400 when it is not an object, 422 when it holds what no body may. */
const fixedFor = (v: unknown) => (!isObjectJson(v) ? NOT_AN_OBJECT : breaksStorage(v) ? UNSTORABLE : undefined);
const MALFORMED = { status: 400, code: 'BAD_REQUEST', why: 'malformed JSON is 400' } as const;
const TOO_LARGE = { status: 413, code: 'PAYLOAD_TOO_LARGE', why: 'a body over 256 KB is 413' } as const;

const padTo256k = (value: unknown) =>
  objectOf([...(isPlainObject(value) ? Object.entries(value as object) : []), ['pad', 'p'.repeat(257 * 1024)]]);

const bodyArb = (route: LoadedRoute, schema: JsonSchema | undefined, opts: DeriveOptions): fc.Arbitrary<BodyPart> => {
  const writes = ['POST', 'PATCH', 'PUT'].includes(route.route.method);
  if (!schema) {
    return pick<BodyPart>([
      [8, fc.constant({ kind: 'none' })],
      [
        writes ? 1 : 0,
        fc
          .constantFrom(...MALFORMED_JSON)
          .map((t) => ({ kind: 'malformed-json', body: Buffer.from(t), contentType: 'application/json', expect: MALFORMED })),
      ],
      [1, hostileValue().map((v) => jsonBody('stray', v, 'application/json', fixedFor(v)))],
      [writes ? 1 : 0, fc.constant(jsonBody('oversized', padTo256k({}), 'application/json', TOO_LARGE))],
    ]);
  }
  const valid = validArb(schema, opts);
  return pick<BodyPart>([
    [5, fc.tuple(valid, fc.constantFrom(...JSON_TYPES)).map(([v, t]) => jsonBody('valid', v, t, fixedFor(v)))],
    [8, mutatedArb(valid).map((v) => jsonBody('mutated', v, 'application/json', fixedFor(v)))],
    [1, hostileValue().map((v) => jsonBody('hostile', v, 'application/json', fixedFor(v)))],
    [
      1,
      fc
        .constantFrom(...MALFORMED_JSON)
        .map((t) => ({ kind: 'malformed-json', body: Buffer.from(t), contentType: 'application/json', expect: MALFORMED })),
    ],
    [
      1,
      fc.tuple(valid, fc.constantFrom(...WRONG_TYPES)).map(([v, t]) =>
        jsonBody('wrong-content-type', v, t, {
          status: 400,
          code: 'BAD_REQUEST',
          why: 'a body without Content-Type: application/json is 400',
        }),
      ),
    ],
    [1, fc.constant({ kind: 'missing', expect: { status: 400, code: 'BAD_REQUEST', why: 'a missing body is 400' } })],
    [1, valid.map((v) => jsonBody('oversized', padTo256k(v), 'application/json', TOO_LARGE))],
    [
      1,
      valid.map((v) => ({
        kind: 'invalid-utf8',
        body: Buffer.concat([
          Buffer.from(`${toJsonText(v).slice(0, -1) + (isPlainObject(v) && Object.keys(v as object).length ? ',' : '')}"\u00e9x":"`),
          Buffer.from([0xff, 0xfe, 0xc0, 0xaf, 0xed, 0xa0, 0x80]),
          Buffer.from('"}'),
        ]),
        contentType: 'application/json',
      })),
    ],
  ]);
};

interface QueryPart {
  kind: string;
  qs: string;
  /** The parameter the answer must refuse by name. */
  names?: string;
}

/** Names every JavaScript object already has: as query parameters they are as unknown as any other. */
const PROTOTYPE_NAMES = [
  '__proto__',
  'constructor',
  'prototype',
  'hasOwnProperty',
  'toString',
  'valueOf',
  '__defineGetter__',
  'isPrototypeOf',
];
/** Integers as `Number()` reads them but plain decimal digits do not write them, and integers past 2^53 or a double's range. */
const INTEGER_SPELLINGS = [
  '0x10',
  '0b1',
  '0o7',
  '+1',
  ' 1',
  '1 ',
  '1e2',
  '01',
  '1.0',
  '-0',
  '1_000',
  '１',
  'Infinity',
  '',
  '9007199254740993',
  `1${'0'.repeat(400)}`,
];
const FAR_DAYS = ['0000-01-01', '0001-01-01', '1969-12-31', '1999-12-31', '2100-01-02', '9999-12-31'];
const FAR_INSTANTS = [
  ...FAR_DAYS.map((d) => `${d}T00:00:00Z`),
  '1999-12-31T23:59:59.999Z',
  '2100-01-01T00:00:00.001Z',
  '2099-12-31T23:00:00-05:00',
  '0000-01-01T00:00:00+14:00',
];
/** Ranges as long as the date bounds allow and beyond: spans each route must refuse or answer in bounded time. */
const HUGE_RANGES = [
  ['2000-01-01', '2100-01-01'],
  ['0000-01-01', '9999-12-31'],
  ['2000-01-01', '2001-01-02'],
  ['2100-01-01', '2000-01-01'],
] as const;

const propertiesOf = (schema: JsonSchema | undefined, test: (p: JsonSchema) => boolean) =>
  Object.entries(schema?.properties ?? {})
    .filter(([, p]) => [p, ...(p.anyOf ?? [])].some(test))
    .map(([name]) => name);
const isInteger = (p: JsonSchema) => p.type === 'integer';
const isDay = (p: JsonSchema) => p.format === 'date';
const isInstant = (p: JsonSchema) => p.format === 'date-time';

/** A valid query with `name` set to `value`, first, so a cut at the length limit never drops it. */
const withParam = (valid: fc.Arbitrary<unknown>, name: string, value: string) =>
  valid.map((v) => {
    const rest = toQueryString(objectOf(Object.entries(v as object).filter(([k]) => k !== name)));
    return `${percentEncode(name)}=${percentEncode(value)}${rest ? `&${rest}` : ''}`;
  });

/** One parameter made hostile in a class the API must refuse by name: a prototype name, an integer spelling, a far date. */
const namedClassesArb = (schema: JsonSchema | undefined, valid: fc.Arbitrary<unknown>): [number, fc.Arbitrary<QueryPart>][] => {
  const integers = propertiesOf(schema, isInteger);
  const days = propertiesOf(schema, isDay);
  const instants = propertiesOf(schema, isInstant);
  const named = (kind: string, names: readonly string[], values: readonly string[]) =>
    fc
      .tuple(fc.constantFrom(...names), fc.constantFrom(...values))
      .chain(([name, value]) => withParam(valid, name, value).map((qs) => ({ kind, qs, names: name })));
  return [
    [2, named('proto-name', PROTOTYPE_NAMES, ['1', 'x', '[object Object]'])],
    [
      integers.length ? 2 : 0,
      integers.length ? named('integer-spelling', integers, INTEGER_SPELLINGS) : fc.constant({ kind: 'none', qs: '' }),
    ],
    [days.length ? 2 : 0, days.length ? named('far-date', days, FAR_DAYS) : fc.constant({ kind: 'none', qs: '' })],
    [instants.length ? 2 : 0, instants.length ? named('far-date', instants, FAR_INSTANTS) : fc.constant({ kind: 'none', qs: '' })],
  ];
};

/** `from`/`to` as far apart as the bounds allow, beyond them, or inverted: the answer may be anything but slow or a 5xx. */
const hugeRangeArb = (schema: JsonSchema | undefined, valid: fc.Arbitrary<unknown>): [number, fc.Arbitrary<QueryPart>][] => {
  const from = schema?.properties?.from;
  if (!from || !schema?.properties?.to) return [];
  const time = [from, ...(from.anyOf ?? [])].some(isInstant) ? 'T00:00:00Z' : '';
  const arb = fc.tuple(fc.constantFrom(...HUGE_RANGES), valid).map(([[a, b], v]) => {
    const rest = toQueryString(objectOf(Object.entries(v as object).filter(([k]) => k !== 'from' && k !== 'to')));
    return { kind: 'huge-range', qs: `from=${percentEncode(a + time)}&to=${percentEncode(b + time)}${rest ? `&${rest}` : ''}` };
  });
  return [[2, arb]];
};

const queryArb = (schema: JsonSchema | undefined, opts: DeriveOptions): fc.Arbitrary<QueryPart> => {
  const valid = schema ? validArb(schema, opts) : fc.constant({});
  return pick<QueryPart>([
    [3, fc.constant({ kind: 'none', qs: '' })],
    [schema ? 4 : 1, valid.map((v) => ({ kind: 'valid', qs: toQueryString(v) }))],
    [3, mutatedArb(valid).map((v) => ({ kind: 'mutated', qs: toQueryString(v) }))],
    [2, fc.constantFrom(...RAW_QUERIES).map((qs) => ({ kind: 'raw', qs }))],
    [
      1,
      fc
        .tuple(hostileString({ long: false }), hostileString({ long: false }))
        .map(([k, v]) => ({ kind: 'hostile', qs: `${percentEncode(k)}=${percentEncode(v)}` })),
    ],
    ...namedClassesArb(schema, valid),
    ...hugeRangeArb(schema, valid),
    ...(schema?.properties?.cursor && opts.cursors?.length
      ? [
          [3, cursorArb(opts.cursors).map((cursor) => ({ kind: 'cursor', qs: `limit=1&cursor=${cursor}` }))] as [
            number,
            fc.Arbitrary<QueryPart>,
          ],
        ]
      : []),
  ]);
};

/** Real cursors, as given or with the key inside changed (an attribute emptied, dropped, retyped, grown). */
const cursorArb = (cursors: readonly string[]): fc.Arbitrary<string> => {
  const decoded = cursors.map((c) => JSON.parse(Buffer.from(c, 'base64url').toString('utf8')) as unknown);
  return fc.oneof(
    fc.constantFrom(...cursors),
    mutatedArb(fc.constantFrom(...decoded)).map((key) => Buffer.from(toJsonText(key), 'utf8').toString('base64url')),
  );
};

/** A cursor from the route's list, when it is a list with cursors and holds more than one page of `limit=1`. */
export const realCursorsFor = async (api: Client, route: LoadedRoute, ids: IdSource): Promise<string[]> => {
  const query = route.spec.query ? jsonSchemaOf(route.spec.query) : undefined;
  if (route.route.method !== 'GET' || !query?.properties?.cursor) return [];
  const path = route.pathParams.reduce((p, name) => p.replace(`{${name}}`, ids(name)[0] ?? '000000000000000000000000'), route.route.path);
  const res = await api.get(`${path}?limit=1`);
  const cursor = res.body?.data?.pagination?.nextCursor;
  return typeof cursor === 'string' ? [cursor] : [];
};

const segmentArb = (schema: JsonSchema | undefined, name: string, opts: DeriveOptions): fc.Arbitrary<{ kind: string; seg: string }> => {
  const valid = schema?.properties?.[name] ? validArb(schema.properties[name]!, opts, name) : fc.stringMatching(/^[0-9a-f]{24}$/);
  return pick([
    [8, valid.map((v) => ({ kind: 'valid', seg: percentEncode(typeof v === 'string' ? v : toJsonText(v)) }))],
    [1, hostileString({ long: false }).map((s) => ({ kind: 'hostile', seg: percentEncode(s) }))],
    [1, fc.constantFrom(...RAW_SEGMENTS).map((seg) => ({ kind: 'raw', seg }))],
  ]);
};

const MAX_QUERY_CHARS = 4096;

/** A route's JSON Schemas, derived once. */
const schemasOf = (route: LoadedRoute) => ({
  body: route.spec.body ? jsonSchemaOf(route.spec.body) : undefined,
  query: route.spec.query ? jsonSchemaOf(route.spec.query) : undefined,
  params: route.spec.params ? jsonSchemaOf(route.spec.params) : undefined,
});

/** Every request the fuzz may send to one route: path, query string and body, each valid or not. */
const caseArb = (route: LoadedRoute, opts: DeriveOptions = {}): fc.Arbitrary<FuzzCase> => {
  const schemas = schemasOf(route);
  const segments = route.pathParams.map((p) => segmentArb(schemas.params, p, opts));
  return fc
    .tuple(fc.tuple(...segments), queryArb(schemas.query, opts), bodyArb(route, schemas.body, opts))
    .map(([segs, query, body]): FuzzCase => {
      let path = route.route.path;
      for (const [i, p] of route.pathParams.entries()) path = path.replace(`{${p}}`, segs[i]!.seg);
      // Node's HTTP parser refuses request lines over 16 KB before any function runs (API Gateway: 10 KB).
      const qs = query.qs.length > MAX_QUERY_CHARS ? query.qs.slice(0, MAX_QUERY_CHARS) : query.qs;
      const target = qs ? `${path}?${qs}` : path;
      // The contract fixes the answer only when the request still reaches this route.
      const pathname = new URL(target, 'http://x').pathname;
      const reaches = resolveRoute(wiring.routes, route.route.method, pathname).match?.route.path === route.route.path;
      return {
        kinds: [
          ...segs.map((s, i) => `path.${route.pathParams[i]}:${s.kind}`).filter((k) => !k.endsWith(':valid')),
          ...(query.kind !== 'none' ? [`query:${query.kind}`] : []),
          ...(body.kind !== 'none' ? [`body:${body.kind}`] : []),
        ],
        method: route.route.method,
        target,
        headers: body.contentType !== undefined ? { 'content-type': body.contentType } : ({} as Record<string, string>),
        body: body.body,
        expect: reaches ? body.expect : undefined,
        // The body is checked before the query, so only a request without one must name the parameter.
        names: reaches && body.kind === 'none' && !route.spec.body ? query.names : undefined,
      };
    });
};

// ---------------------------------------------------------------------------------------------------------
// Tokens: a fresh one before any category's budget runs out, so rate limits stay real and never answer.

export class TokenPool {
  private readonly current = new Map<RateCategory, { token: Promise<string>; left: number }>();
  minted = 0;

  constructor(
    readonly workspaceId: string,
    private readonly scopes: Scope[] = ['admin:all'],
  ) {}

  /** A token with budget left for one request to `method target`; counts the request. */
  take(method: string, target: string): Promise<string> {
    const category = rateCategory(method, new URL(target, 'http://x').pathname);
    let slot = this.current.get(category);
    if (!slot || slot.left <= 0) {
      this.minted++;
      // Two below the limit: a margin for requests a test makes itself with the same token.
      slot = { token: tokenFor([this.workspaceId], this.scopes).then((t) => t.token), left: RATE_LIMITS[category] - 2 };
      this.current.set(category, slot);
    }
    slot.left--;
    return slot.token;
  }
}

// ---------------------------------------------------------------------------------------------------------
// Sending

const agent = new Agent({ keepAlive: true, maxSockets: 16 });

type Request = { method: string; target: string; headers: Record<string, string>; body?: Buffer };

/** One raw HTTP request: bytes exactly as given, the answer as text whatever its type (a JSON one held to the response gate). */
export const send = async (baseUrl: string, c: Request, auth: { token: string; workspaceId: string }): Promise<RawResponse> => {
  const res = await sendRaw(baseUrl, c, auth);
  await checkJsonAnswer(c.method, c.target, res);
  return res;
};

const sendRaw = (baseUrl: string, c: Request, auth: { token: string; workspaceId: string }): Promise<RawResponse> =>
  new Promise((resolve, reject) => {
    const url = new URL(baseUrl);
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        method: c.method,
        path: c.target,
        agent,
        headers: {
          authorization: `Bearer ${auth.token}`,
          'x-workspace-id': auth.workspaceId,
          ...c.headers,
          ...(c.body ? { 'content-length': String(c.body.length) } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(c.body);
  });

// ---------------------------------------------------------------------------------------------------------
// The oracle

const codesByStatus = new Map<number, string[]>();
for (const [code, status] of Object.entries(errorStatus)) codesByStatus.set(status, [...(codesByStatus.get(status) ?? []), code]);

/** Every way an answer breaks the contract: 5xx, non-JSON, a wrong wrapper or code, a stack trace, the fixed answer missed. */
export const violations = (
  c: Pick<FuzzCase, 'expect' | 'names'>,
  res: RawResponse,
  route: { public?: true; produces?: string } = {},
): string[] => {
  const { produces } = route;
  const out: string[] = [];
  if (res.status >= 500) out.push(`status ${res.status}`);
  if (res.status === 429) out.push('429: the token pool let a token run out of budget');
  const type = String(res.headers['content-type'] ?? '');
  if (res.headers['x-content-type-options'] !== 'nosniff') out.push('no X-Content-Type-Options: nosniff');
  // A route that answers with a file (its spec's `produces`): a success is that file, an error still the JSON wrapper.
  if (produces && res.status < 300 && !c.expect) {
    if (!type.startsWith(produces)) out.push(`content-type ${JSON.stringify(type)}, not ${produces}`);
    if (!res.headers['x-request-id']) out.push('no X-Request-Id');
    if (res.text.length === 0) out.push('empty file');
    return out;
  }
  if (!/^application\/json/i.test(type)) out.push(`content-type ${JSON.stringify(type)}`);
  if (!res.headers['x-request-id']) out.push('no X-Request-Id');
  // Every request but a public route's is authenticated, so its answer carries the rate-limit headers, errors included.
  if (!route.public && (!res.headers['x-ratelimit-limit'] || !res.headers['x-ratelimit-remaining'] || !res.headers['x-ratelimit-reset']))
    out.push('no X-RateLimit-* headers');
  let body: any;
  try {
    body = JSON.parse(res.text);
  } catch {
    out.push(`non-JSON body ${JSON.stringify(res.text.slice(0, 80))}`);
    return out;
  }
  if (res.status >= 400) {
    const e = body?.error;
    if (body?.success !== false || typeof e?.code !== 'string' || typeof e?.message !== 'string')
      out.push(`not the error wrapper: ${res.text.slice(0, 120)}`);
    else if (!(codesByStatus.get(res.status) ?? []).includes(e.code)) out.push(`code ${e.code} with status ${res.status}`);
  } else if (route.public) {
    // A public document is answered as itself, no wrapper.
    if (body === null || typeof body !== 'object' || 'success' in body) out.push(`not a bare JSON document: ${res.text.slice(0, 120)}`);
  } else if (body?.success !== true || body.data === null || typeof body.data !== 'object')
    out.push(`not the success wrapper: ${res.text.slice(0, 120)}`);
  if (/\.(ts|js|mjs):\d+|\n\s+at /.test(res.text)) out.push('stack trace in body');
  if (c.expect && (res.status !== c.expect.status || body?.error?.code !== c.expect.code)) {
    out.push(`expected ${c.expect.status} ${c.expect.code} (${c.expect.why}), got ${res.status} ${body?.error?.code ?? ''}`);
  }
  if (c.names !== undefined && !refusesByName(res.status, body, c.names))
    out.push(`expected 400 or 422 naming the query parameter ${JSON.stringify(c.names)}, got ${res.status}`);
  return out;
};

const refusesByName = (status: number, body: any, name: string) =>
  (status === 400 || status === 422) &&
  Array.isArray(body?.error?.details?.errors) &&
  body.error.details.errors.some((e: { path?: unknown }) => e.path === name);

/** A short, printable description of a case for failure reports. */
const describeCase = (c: FuzzCase): string => {
  const body = c.body ? c.body.toString('utf8') : '';
  const shown = body.length > 200 ? `${body.slice(0, 200)}… (${c.body!.length} bytes)` : body;
  const target = c.target.length > 200 ? `${c.target.slice(0, 200)}…` : c.target;
  return `${c.method} ${target} [${c.kinds.join(', ') || 'valid'}]${c.headers['content-type'] !== undefined ? ` content-type=${JSON.stringify(c.headers['content-type'])}` : ''}${shown ? ` body=${JSON.stringify(shown)}` : ''}`;
};

// ---------------------------------------------------------------------------------------------------------
// Running

/** Every fuzzed request is answered within this, whatever it asks for… */
export const MAX_ANSWER_MS = 2_000;

/**
 * …unless the machine itself is that slow at the moment: an answer over the limit twice fails only when it
 * also took this many times as long as a trivial authenticated read sent right after it.
 */
const BASELINE_FACTOR = 5;
const BASELINE_PATH = '/api/v1/auth/workspaces';
const baselineCase: Request = { method: 'GET', target: BASELINE_PATH, headers: {} };

const timed = async (baseUrl: string, c: Request, token: string, workspaceId: string): Promise<{ res: RawResponse; ms: number }> => {
  const sent = performance.now();
  let res: RawResponse;
  try {
    res = await send(baseUrl, c, { token, workspaceId });
  } catch (error) {
    res = { status: 0, headers: {}, text: `transport error: ${String(error)}` };
  }
  return { res, ms: Math.round(performance.now() - sent) };
};

export interface RouteStats {
  route: string;
  cases: number;
  /** Cases per input class (`query:far-date`, `body:mutated`…; `valid` when nothing in the case is made hostile). */
  classes: Map<string, number>;
  /** The slowest answer (of a case sent again, the second) and the case that got it. */
  slowest: { ms: number; case: string };
  /** Cases answered over the limit once and sent again. */
  stalls: number;
  statuses: Map<number, number>;
  serverErrors: number;
  nonJson: number;
  /** Cases with any violation; `failures` keeps the first few in detail. */
  failing: number;
  failures: { case: string; problems: string[]; status: number; body: string }[];
  ms: number;
}

/**
 * Sends `cases` generated requests to one route, `concurrency` at a time, and checks each answer and how
 * long it took. Two at a time keep each answer's time its own on two cores rather than a queue's.
 * Deterministic for a given seed.
 */
export const fuzzRoute = async (
  baseUrl: string,
  route: LoadedRoute,
  pool: TokenPool,
  {
    cases,
    seed,
    concurrency = 2,
    opts = {},
    keepFailures = 20,
    conform,
    observe,
  }: {
    cases: number;
    seed: number;
    concurrency?: number;
    opts?: DeriveOptions;
    keepFailures?: number;
    /** A further check of each answer (the document's statuses, headers and content types). */
    conform?: (res: RawResponse) => string[];
    /** Sees each case as it is sent. */
    observe?: (c: FuzzCase) => void;
  },
): Promise<RouteStats> => {
  const started = Date.now();
  const stats: RouteStats = {
    route: route.key,
    cases: 0,
    classes: new Map(),
    slowest: { ms: 0, case: '' },
    stalls: 0,
    statuses: new Map(),
    serverErrors: 0,
    nonJson: 0,
    failing: 0,
    failures: [],
    ms: 0,
  };
  const arb = caseArb(route, opts);
  if (route.route.method === 'GET') {
    // One untimed read first: what a cold function does once (the document built on first use) answers no input.
    const path = route.pathParams.reduce(
      (p, name) => p.replace(`{${name}}`, opts.ids?.(name)[0] ?? '000000000000000000000000'),
      route.route.path,
    );
    await send(
      baseUrl,
      { method: 'GET', target: path, headers: {} },
      { token: await pool.take('GET', path), workspaceId: pool.workspaceId },
    );
  }
  // Generated in chunks so a 10 000-case run never holds every body at once.
  const chunk = 500;
  for (let done = 0; done < cases; done += chunk) {
    const batch = fc.sample(arb, { seed: seed + done, numRuns: Math.min(chunk, cases - done) });
    let next = 0;
    const worker = async () => {
      while (next < batch.length) {
        const c = batch[next++]!;
        observe?.(c);
        const token = await pool.take(c.method, c.target);
        let { res, ms } = await timed(baseUrl, c, token, pool.workspaceId);
        if (ms > MAX_ANSWER_MS) {
          // Sent again once: an answer whose time grows with its input is slow every time, a stall of a busy machine is not.
          stats.stalls++;
          ({ res, ms } = await timed(baseUrl, c, await pool.take(c.method, c.target), pool.workspaceId));
        }
        const slow =
          ms > MAX_ANSWER_MS &&
          ms > BASELINE_FACTOR * (await timed(baseUrl, baselineCase, await pool.take('GET', BASELINE_PATH), pool.workspaceId)).ms;
        stats.cases++;
        for (const kind of c.kinds.length ? c.kinds : ['valid']) stats.classes.set(kind, (stats.classes.get(kind) ?? 0) + 1);
        if (ms > stats.slowest.ms) stats.slowest = { ms, case: describeCase(c) };
        stats.statuses.set(res.status, (stats.statuses.get(res.status) ?? 0) + 1);
        if (res.status >= 500 || res.status === 0) stats.serverErrors++;
        const problems =
          res.status === 0
            ? [res.text]
            : [...violations(c, res, { public: route.route.public, produces: route.spec.produces }), ...(conform?.(res) ?? [])];
        if (slow) problems.push(`answered in ${ms} ms, over ${MAX_ANSWER_MS} ms and ${BASELINE_FACTOR}× a trivial read's time`);
        if (problems.some((p) => p.startsWith('non-JSON') || p.startsWith('content-type'))) stats.nonJson++;
        if (problems.length) stats.failing++;
        if (problems.length && stats.failures.length < keepFailures)
          stats.failures.push({ case: describeCase(c), problems, status: res.status, body: res.text.slice(0, 300) });
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
  }
  stats.ms = Date.now() - started;
  return stats;
};

// ---------------------------------------------------------------------------------------------------------
// Real ids, so generated requests reach handlers and not only "unknown id" answers.

/** Body fields that name a kind of resource, by name; anything else gets every real id. */
const KIND_OF_FIELD: [RegExp, string][] = [
  [/tag/i, '/api/v1/tags/{id}'],
  [/customer|baseId|mergeeId/i, '/api/v1/contacts/customers/{id}'],
  [/conversation/i, '/api/v1/inbox/conversations/{id}'],
];

/**
 * Creates, in the fuzzed workspace, resources for the route's own id parameters (through its factory)
 * and a few tags, customers and conversations for ids in bodies; returns where each field's ids come from.
 */
export const realIdsFor = async (
  api: Client,
  route: LoadedRoute,
  factories: Record<string, ResourceFactory>,
  shared?: Promise<Map<string, string[]>>,
): Promise<IdSource> => {
  const own = factoryFor(factories, route);
  const [byKind, mine] = await Promise.all([shared ?? sharedIds(api, factories), own ? own.create(api) : undefined]);
  const params: Record<string, string[]> = {};
  for (const [name, id] of Object.entries(mine ?? {})) params[name] = [id];
  const every = [...byKind.values()].flat();
  return (field) => params[field] ?? byKind.get(KIND_OF_FIELD.find(([re]) => re.test(field))?.[1] ?? '') ?? every;
};

/** Tags, customers and a conversation for ids in bodies, by collection; make once and share between routes. */
export const sharedIds = async (api: Client, factories: Record<string, ResourceFactory>): Promise<Map<string, string[]>> => {
  const kinds = [
    '/api/v1/tags/{id}',
    '/api/v1/tags/{id}',
    '/api/v1/contacts/customers/{id}',
    '/api/v1/contacts/customers/{id}',
    '/api/v1/inbox/conversations/{id}',
  ];
  const made = await Promise.all(kinds.map((k) => factories[k]!.create(api)));
  const byKind = new Map<string, string[]>();
  for (const [i, ids] of made.entries()) byKind.set(kinds[i]!, [...(byKind.get(kinds[i]!) ?? []), ids.id!]);
  return byKind;
};

/** Strings that satisfy refinements JSON Schema cannot carry (event names, https URLs), mixed into plain strings. */
export const FUZZ_HINTS = [
  '*',
  'inbox.*',
  'inbox.conversation.*',
  'webhook.ping',
  'https://127.0.0.1:9/hook',
  'https://example.com/x',
  'VIP',
  'note',
  'outgoing',
  'tags:read',
];
