import * as z from 'zod';

/**
 * The one rule for JSON the API takes in, free-form JSON above all (customer and lead attributes, workflow
 * trigger payloads, http_request headers and body templates): stored as DynamoDB maps and read back into
 * plain JavaScript objects, every key and value must survive JSON → object → DynamoDB → object → JSON
 * unchanged, nest no deeper than its limit, and stay small enough that the items holding it (the entity, its
 * events) stay under 400 KB. Every walk here keeps its own stack: a body may nest deeper than the call stack.
 */
export interface FreeFormLimits {
  /** Entries of the map itself. */
  maxEntries: number;
  /** In UTF-16 code units, like every other string length in the API. */
  maxKeyLength: number;
  /** The value's stored size, by DynamoDB's item-size arithmetic (see `storedSize`). */
  maxBytes: number;
  /** Objects and arrays inside one another, the value itself counting as the first. */
  maxDepth: number;
}

export type JsonPath = (string | number)[];
export interface JsonProblem {
  path: JsonPath;
  message: string;
}

/**
 * Names every plain object already has (`__proto__`, `constructor`, `toString`, …) and `prototype`: as own
 * keys they are dropped by object assignment, or change how parsers, marshallers and callers treat the object.
 */
const RESERVED_KEYS = new Set([...Object.getOwnPropertyNames(Object.prototype), 'prototype']);

/** DynamoDB rounds positive magnitudes below this to nothing (it refuses them). */
const SMALLEST_STORED_MAGNITUDE = 1e-130;

export const NUMBER_RULE =
  'Must be a number stored exactly as written: not -0, |n| at most 9007199254740991, 0 or at least 1e-130, and no more digits than a double holds';
const ILL_FORMED = 'Must be valid Unicode text (no unpaired surrogate)';

/**
 * A number both DynamoDB and JavaScript hold exactly: finite, not -0 (DynamoDB has no signed zero), within
 * ±(2^53 − 1) (the SDK refuses anything larger rather than lose digits), and not so small DynamoDB refuses it.
 * A double has at most 17 significant digits, far within DynamoDB's 38.
 */
export const isStorableNumber = (n: number): boolean =>
  Number.isFinite(n) &&
  !Object.is(n, -0) &&
  Math.abs(n) <= Number.MAX_SAFE_INTEGER &&
  (n === 0 || Math.abs(n) >= SMALLEST_STORED_MAGNITUDE);

const utf8Bytes = (s: string) => Buffer.byteLength(s, 'utf8');

/** DynamoDB's item-size arithmetic: UTF-8 bytes of strings and names, at most 21 bytes a number, 1 a boolean or null, 3 a map or list plus 1 an element. */
export const storedSize = (value: unknown): number => {
  let size = 0;
  const pending = [value];
  while (pending.length > 0) {
    const v = pending.pop();
    if (typeof v === 'string') size += utf8Bytes(v);
    else if (typeof v === 'number') size += 21;
    else if (v !== null && typeof v === 'object') {
      size += 3;
      for (const [k, inner] of Object.entries(v)) {
        size += 1 + (Array.isArray(v) ? 0 : utf8Bytes(k));
        pending.push(inner);
      }
    } else size += 1;
  }
  return size;
};

const keyProblem = (key: string, maxKeyLength: number): string | undefined => {
  if (key.length === 0) return 'Keys must not be empty';
  if (RESERVED_KEYS.has(key)) return `"${key}" is a reserved name`;
  if (!key.isWellFormed()) return ILL_FORMED;
  if (key.length > maxKeyLength) return `Keys are at most ${maxKeyLength} characters`;
  return undefined;
};

/** At most this many problems are listed: enough to fix a request, and bounded for any body. */
export const MAX_PROBLEMS = 50;

/**
 * Every place where `value` breaks the rules, in document order: numbers the storage cannot hold, text with
 * unpaired surrogates, nesting past `maxDepth`, and, when `maxKeyLength` is given (free-form maps, whose keys
 * are data), key names that are empty, reserved or too long.
 */
export const jsonProblems = (value: unknown, limits: { maxDepth: number; maxKeyLength?: number }): JsonProblem[] => {
  interface Node {
    value: unknown;
    path: JsonPath;
    depth: number;
    key?: string;
  }
  const problems: JsonProblem[] = [];
  const pending: Node[] = [{ value, path: [], depth: 0 }];
  for (let node = pending.pop(); node && problems.length < MAX_PROBLEMS; node = pending.pop()) {
    const { value: v, path, depth, key } = node;
    const keyIssue =
      key === undefined
        ? undefined
        : limits.maxKeyLength === undefined
          ? key.isWellFormed()
            ? undefined
            : ILL_FORMED
          : keyProblem(key, limits.maxKeyLength);
    if (keyIssue) problems.push({ path, message: keyIssue });
    else if (typeof v === 'number') {
      if (!isStorableNumber(v)) problems.push({ path, message: NUMBER_RULE });
    } else if (typeof v === 'string') {
      if (!v.isWellFormed()) problems.push({ path, message: ILL_FORMED });
    } else if (v !== null && typeof v === 'object') {
      if (depth >= limits.maxDepth) problems.push({ path, message: `Nests at most ${limits.maxDepth} levels deep` });
      else {
        const array = Array.isArray(v);
        const children = Object.entries(v).map(
          ([k, inner]): Node => ({ value: inner, path: [...path, array ? Number(k) : k], depth: depth + 1, ...(array ? {} : { key: k }) }),
        );
        pending.push(...children.reverse());
      }
    }
  }
  return problems;
};

/** Why a whole value breaks its size limits, if it does: also for maps built by merging, not only for requests. */
export const limitProblem = (value: unknown, limits: FreeFormLimits): string | undefined => {
  if (value !== null && typeof value === 'object' && Object.keys(value).length > limits.maxEntries)
    return `At most ${limits.maxEntries} entries`;
  if (storedSize(value) > limits.maxBytes) return `At most ${limits.maxBytes} bytes in all (UTF-8 keys and values)`;
  return undefined;
};

/**
 * The one schema for free-form JSON: `schema` says what the field may hold, the rules above what the storage
 * can hold. They run before `schema` sees the value: `JSON.parse` makes `"__proto__"` an own key, which zod's
 * record would silently skip, and a deep value must be refused before anything recurses into it.
 */
export const freeForm = <S extends z.ZodType>(schema: S, limits: FreeFormLimits) =>
  z.preprocess((input, ctx) => {
    const problems = jsonProblems(input, limits);
    const tooBig = problems.length ? undefined : limitProblem(input, limits);
    if (tooBig) problems.push({ path: [], message: tooBig });
    for (const p of problems) ctx.addIssue({ code: 'custom', message: p.message, path: p.path, input });
    return problems.length ? z.NEVER : input;
  }, schema);

/** A free-form map: `key` and `value` say what it may hold. */
export const freeFormMap = <K extends z.ZodType<string, string>, V extends z.ZodType>(key: K, value: V, limits: FreeFormLimits) =>
  freeForm(z.record(key, value), limits);
