import fc from 'fast-check';
import * as z from 'zod';

/**
 * fast-check arbitraries derived from a route's zod schemas (through `z.toJSONSchema`, zod 4's public
 * description of a schema), plus hostile values, and a JSON writer that can say what `JSON.stringify`
 * cannot (own `__proto__` keys, `-0`, `1e400`, 2^53+1 as written, 100 000-deep nesting).
 */

/**
 * A piece of JSON text inserted verbatim by `toJsonText`, with what the oracle needs to know about it:
 * whether a number as written is one the storage holds exactly, and how many containers a nesting holds.
 */
export class RawJson {
  constructor(
    readonly text: string,
    readonly facts: { storable?: boolean; depth?: number } = {},
  ) {}
}

/** An object with these own enumerable keys, `__proto__` included (a literal would set the prototype instead). */
export const objectOf = (entries: readonly (readonly [string, unknown])[]): Record<string, unknown> => {
  const out: Record<string, unknown> = {};
  for (const [k, v] of entries) Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  return out;
};

/** JSON text for generated values; `undefined` members are dropped, as JSON.stringify does. */
export const toJsonText = (value: unknown): string => {
  if (value instanceof RawJson) return value.text;
  if (value === undefined) return 'null';
  if (Array.isArray(value)) return `[${value.map(toJsonText).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const parts = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${JSON.stringify(k)}:${toJsonText(v)}`);
    return `{${parts.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
};

const PROTO_KEYS = ['__proto__', 'constructor', 'prototype'] as const;

const HOSTILE_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\uD800',
  '\uDFFF',
  'x\uD83D',
  '\uDE00y',
  '\u202Eevil\u202C',
  '\u200F\u200E\u061C',
  '\u200B\uFEFF',
  '👩‍👩‍👧‍👦🏳️‍🌈',
  'e\u0301\u0301\u0301',
  'İıſK',
  '../../etc/passwd',
  '%00%ff',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a Log4Shell probe, meant literally
  '${jndi:ldap://x}',
  '{{7*7}}',
  '__proto__',
  'constructor',
  'toString',
  'null',
  'NaN',
  '-0',
  '1e308',
  'WS#x#CONV#y',
  '\r\nX-Injected: 1',
];

const unstorable = (text: string) => new RawJson(text, { storable: false });
const storable = (text: string) => new RawJson(text, { storable: true });

/** Numbers at the edges of what JSON, JS and DynamoDB represent: beyond 2^53, beyond a double's range, below DynamoDB's. */
const HOSTILE_NUMBERS: unknown[] = [
  0,
  -1,
  1e308,
  -1e308,
  Number.MAX_SAFE_INTEGER,
  Number.MIN_VALUE,
  2 ** 64,
  0.1 + 0.2,
  unstorable('-0'),
  unstorable('1e-320'),
  unstorable('9007199254740992'),
  unstorable('9007199254740993'),
  unstorable('-9007199254740993'),
  unstorable('123456789012345678901234567890123456789012'),
  unstorable('1e400'),
  unstorable('-1e400'),
  unstorable('2e308'),
  unstorable('0.10000000000000000001'),
  storable('9007199254740991'),
  storable('1E+2'),
  storable('0.0000000000000000000000000000000000000000001'),
];

/**
 * Hostile strings; `long` adds 1 001 to 70 000 characters (bodies only: a URL that long is refused before any function).
 * Made once per kind, at the first use: building `fc.string({ unit: 'binary' })` maps every code point (a
 * million-entry table, about 1.5 CPU s), which a file that only derives valid bodies never needs, and a route's
 * arbitraries ask for hostile strings dozens of times; fast-check's arbitraries hold no state between values.
 */
export const hostileString = ({ long = true }: { long?: boolean } = {}): fc.Arbitrary<string> => {
  const kind = long ? 'long' : 'short';
  hostileStringArbs[kind] ??= hostileStringArb(long);
  return hostileStringArbs[kind];
};

let binaryString: fc.Arbitrary<string> | undefined;
const hostileStringArb = (long: boolean): fc.Arbitrary<string> => {
  binaryString ??= fc.string({ unit: 'binary', maxLength: 40 });
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
    { weight: 3, arbitrary: binaryString },
    { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
    { weight: 1, arbitrary: fc.constantFrom(...(long ? [1001, 2049, 10_001, 70_000] : [201, 321, 1001])).map((n) => 'x'.repeat(n)) },
  );
};
const hostileStringArbs: { long?: fc.Arbitrary<string>; short?: fc.Arbitrary<string> } = {};

const hostileNumber = (): fc.Arbitrary<unknown> =>
  fc.oneof(fc.constantFrom(...HOSTILE_NUMBERS), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer());

/** Arrays and objects nested `depth` deep, written directly as text (no recursion on either side of the wire). */
const deepNesting = (): fc.Arbitrary<RawJson> =>
  fc
    .tuple(fc.constantFrom(32, 1000, 5_000, 10_000, 20_000, 100_000), fc.boolean())
    .map(
      ([depth, arrays]) =>
        new RawJson(arrays ? `${'['.repeat(depth)}1${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`, { depth }),
    );

/** How deep the API lets any body nest (objects and arrays inside one another, the body counting as the first). */
const MAX_BODY_DEPTH = 32;

/** The documented rule for numbers, restated for the oracle: finite, not -0, |n| ≤ 2^53 − 1, and 0 or |n| ≥ 1e-130. */
const storableNumber = (n: number) =>
  Number.isFinite(n) && !Object.is(n, -0) && Math.abs(n) <= Number.MAX_SAFE_INTEGER && (n === 0 || Math.abs(n) >= 1e-130);

/**
 * Whether a generated body holds what no body may (422 on every route, before its own schema): a number the
 * storage cannot hold exactly as written, text with an unpaired surrogate, or nesting past `MAX_BODY_DEPTH`.
 */
export const breaksStorage = (value: unknown): boolean => {
  const pending: { value: unknown; enclosing: number }[] = [{ value, enclosing: 0 }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const { value: v, enclosing } = next;
    if (v instanceof RawJson) {
      if (v.facts.storable === false || enclosing + (v.facts.depth ?? 0) > MAX_BODY_DEPTH) return true;
    } else if (typeof v === 'number') {
      // JSON.stringify writes -0 as 0 and a non-finite number as null.
      if (Number.isFinite(v) && !storableNumber(Number(JSON.stringify(v)))) return true;
    } else if (typeof v === 'string') {
      if (!v.isWellFormed()) return true;
    } else if (v !== null && typeof v === 'object') {
      if (enclosing + 1 > MAX_BODY_DEPTH) return true;
      for (const [k, inner] of Object.entries(v)) {
        if (inner === undefined) continue;
        if (!Array.isArray(v) && !k.isWellFormed()) return true;
        pending.push({ value: inner, enclosing: enclosing + 1 });
      }
    }
  }
  return false;
};

/** Any JSON value, hostile ones included; objects may carry prototype keys. */
export const hostileValue = (): fc.Arbitrary<unknown> => {
  const leaf = fc.oneof(hostileString(), hostileNumber(), fc.boolean(), fc.constant(null));
  const { value } = fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      leaf,
      fc.array(tie('value'), { maxLength: 4 }),
      fc
        .array(fc.tuple(fc.oneof(fc.constantFrom(...PROTO_KEYS), fc.string({ maxLength: 8 })), tie('value')), { maxLength: 4 })
        .map(objectOf),
    ),
  }));
  return fc.oneof({ weight: 8, arbitrary: value }, { weight: 1, arbitrary: deepNesting() });
};

// ---------------------------------------------------------------------------------------------------------
// From JSON Schema (as zod 4 writes it) to arbitraries.

export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  propertyNames?: JsonSchema;
  items?: JsonSchema;
  prefixItems?: JsonSchema[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  pattern?: string;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  default?: unknown;
};

/** The JSON Schema of a route input, as a client must send it (`io: 'input'`); refinements are not in it. */
export const jsonSchemaOf = (schema: z.ZodType): JsonSchema =>
  z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', cycles: 'ref', reused: 'inline' }) as JsonSchema;

/** Real ids to use where a schema wants an object id, by the name of the field (or path parameter). */
export type IdSource = (field: string) => readonly string[];

export interface DeriveOptions {
  ids?: IdSource;
  /** Strings known to satisfy refinements the JSON Schema cannot express (webhook event names, URLs…). */
  hints?: readonly string[];
  /** Real pagination cursors of the route's list, to send both as they are and with their keys mutated. */
  cursors?: readonly string[];
}

const OBJECT_ID_PATTERN = '^[0-9a-f]{24}$';

const regexArb = (pattern: string): fc.Arbitrary<string> | undefined => {
  try {
    return fc.stringMatching(new RegExp(pattern, 'u'));
  } catch {
    try {
      return fc.stringMatching(new RegExp(pattern));
    } catch {
      return undefined;
    }
  }
};

const fitLength = (v: string, min: number, max = Number.POSITIVE_INFINITY): string =>
  (v.length >= min || v.length === 0 ? v : v.repeat(Math.ceil(min / v.length))).slice(0, max);

const stringArb = (s: JsonSchema, field: string, opts: DeriveOptions): fc.Arbitrary<string> => {
  const min = s.minLength ?? 0;
  const max = s.maxLength ?? 200;
  const options: fc.WeightedArbitrary<string>[] = [];
  if (s.pattern) {
    const real = s.pattern === OBJECT_ID_PATTERN ? (opts.ids?.(field) ?? []) : [];
    if (real.length) options.push({ weight: 3, arbitrary: fc.constantFrom(...real) });
    const matching = regexArb(s.pattern);
    // Stretched or cut to the length bounds rather than filtered (a filter on `+` and `min 16` never ends).
    if (matching) options.push({ weight: 3, arbitrary: matching.map((v) => fitLength(v, min, s.maxLength)) });
  }
  if (s.format === 'email') options.push({ weight: 3, arbitrary: fc.emailAddress().map((v) => fitLength(v, min, s.maxLength)) });
  if (s.format === 'date-time')
    options.push({
      weight: 3,
      arbitrary: fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString()),
    });
  if (s.format === 'uri')
    options.push({ weight: 3, arbitrary: fc.webUrl({ validSchemes: ['https', 'http'] }).map((v) => fitLength(v, min, s.maxLength)) });
  if (!s.pattern && !s.format) {
    options.push({ weight: 3, arbitrary: fc.string({ minLength: min, maxLength: Math.min(max, Math.max(min, 40)) }) });
    options.push({ weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: min, maxLength: Math.min(max, Math.max(min, 12)) }) });
    if (s.maxLength !== undefined) options.push({ weight: 1, arbitrary: fc.constant('y'.repeat(max)) });
    if (opts.hints?.length)
      options.push({ weight: 3, arbitrary: fc.constantFrom(...opts.hints).map((v) => fitLength(v, min, s.maxLength)) });
  }
  return fc.oneof(...options);
};

const numberArb = (s: JsonSchema, integer: boolean): fc.Arbitrary<number> => {
  const min = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + (integer ? 1 : Number.EPSILON) : undefined);
  const max = s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - (integer ? 1 : Number.EPSILON) : undefined);
  if (integer) {
    const lo = Math.max(min ?? -1e6, Number.MIN_SAFE_INTEGER);
    const hi = Math.min(max ?? 1e6, Number.MAX_SAFE_INTEGER);
    return fc.oneof(fc.integer({ min: lo, max: hi }), fc.constantFrom(lo, hi));
  }
  return fc.double({ min: min ?? -1e9, max: max ?? 1e9, noNaN: true, noDefaultInfinity: true });
};

const typeOf = (s: JsonSchema): string | undefined => (Array.isArray(s.type) ? s.type[0] : s.type);

/** Values the schema accepts (as far as JSON Schema says; refinements may still refuse some). */
export const validArb = (s: JsonSchema, opts: DeriveOptions = {}, field = ''): fc.Arbitrary<unknown> => {
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  const union = s.anyOf ?? s.oneOf;
  if (union?.length) return fc.oneof(...union.map((u) => validArb(u, opts, field)));
  if (s.allOf?.length) return validArb(s.allOf[0]!, opts, field);
  switch (typeOf(s)) {
    case 'string':
      return stringArb(s, field, opts);
    case 'integer':
      return numberArb(s, true);
    case 'number':
      return numberArb(s, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const item = s.items ? validArb(s.items, opts, field) : fc.jsonValue();
      const min = s.minItems ?? 0;
      return fc.array(item, { minLength: min, maxLength: Math.min(s.maxItems ?? 5, Math.max(min, 5)) });
    }
    case 'object': {
      const props = Object.entries(s.properties ?? {});
      const required = new Set(s.required ?? []);
      const fixed = props.map(([k, p]) =>
        (required.has(k) ? validArb(p, opts, k) : fc.option(validArb(p, opts, k), { nil: undefined, freq: 2 })).map((v) => [k, v] as const),
      );
      const free =
        typeof s.additionalProperties === 'object'
          ? fc.array(
              fc.tuple(
                s.propertyNames ? (validArb(s.propertyNames, opts, field) as fc.Arbitrary<string>) : fc.string({ maxLength: 10 }),
                validArb(s.additionalProperties, opts, field),
              ),
              { maxLength: 4 },
            )
          : fc.constant([] as (readonly [string, unknown])[]);
      return fc.tuple(fc.tuple(...fixed), free).map(([own, extra]) => objectOf([...extra, ...own].filter(([, v]) => v !== undefined)));
    }
    default:
      return fc.jsonValue();
  }
};

// ---------------------------------------------------------------------------------------------------------
// Mutations: a valid value with one place made hostile.

type Path = readonly (string | number)[];

const pathsOf = (value: unknown, at: Path = [], out: Path[] = []): Path[] => {
  out.push(at);
  if (Array.isArray(value)) for (const [i, v] of value.entries()) pathsOf(v, [...at, i], out);
  else if (value !== null && typeof value === 'object' && !(value instanceof RawJson)) {
    for (const [k, v] of Object.entries(value)) pathsOf(v, [...at, k], out);
  }
  return out;
};

const cloneWith = (value: unknown, path: Path, edit: (v: unknown) => unknown): unknown => {
  if (path.length === 0) return edit(value);
  const [head, ...rest] = path;
  if (Array.isArray(value)) return value.map((v, i) => (i === head ? cloneWith(v, rest, edit) : v));
  if (value !== null && typeof value === 'object') {
    return objectOf(Object.entries(value).map(([k, v]) => [k, k === head ? cloneWith(v, rest, edit) : v] as const));
  }
  return value;
};

export type Mutation =
  | { kind: 'replace'; with: unknown }
  | { kind: 'extra-key'; key: string; with: unknown }
  | { kind: 'drop-key' }
  | { kind: 'oversize' };

const mutationArb = (): fc.Arbitrary<Mutation> =>
  fc.oneof(
    { weight: 5, arbitrary: hostileValue().map((v) => ({ kind: 'replace' as const, with: v })) },
    {
      weight: 4,
      arbitrary: fc
        .tuple(
          fc.oneof(fc.constantFrom(...PROTO_KEYS), fc.constantFrom('extra', 'hasOwnProperty', '$where', ''), hostileString()),
          hostileValue(),
        )
        .map(([key, v]) => ({ kind: 'extra-key' as const, key, with: v })),
    },
    { weight: 2, arbitrary: fc.constant({ kind: 'drop-key' as const }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'oversize' as const }) },
  );

const applyMutation = (value: unknown, path: Path, m: Mutation): unknown => {
  switch (m.kind) {
    case 'replace':
      return cloneWith(value, path, () => m.with);
    case 'extra-key':
      return cloneWith(value, path, (v) =>
        v !== null && typeof v === 'object' && !Array.isArray(v)
          ? objectOf([...Object.entries(v), [m.key, m.with]])
          : objectOf([[m.key, m.with]]),
      );
    case 'drop-key': {
      if (path.length === 0) return value;
      const parent = path.slice(0, -1);
      const last = path[path.length - 1];
      return cloneWith(value, parent, (v) =>
        Array.isArray(v)
          ? v.filter((_, i) => i !== last)
          : v !== null && typeof v === 'object'
            ? objectOf(Object.entries(v).filter(([k]) => k !== last))
            : v,
      );
    }
    case 'oversize':
      return cloneWith(value, path, (v) =>
        Array.isArray(v)
          ? Array.from({ length: 1001 }, (_, i) => v[i % Math.max(v.length, 1)] ?? 'x')
          : typeof v === 'string'
            ? v.padEnd(20_000, 'z')
            : 'z'.repeat(300 * 1024),
      );
  }
};

/** Valid values with one place replaced by a hostile value, a prototype or unknown key, a removal or growth. */
export const mutatedArb = (valid: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> =>
  fc.tuple(valid, fc.nat(), mutationArb()).map(([value, n, m]) => {
    const paths = pathsOf(value);
    return applyMutation(value, paths[n % paths.length]!, m);
  });
