import * as z from 'zod';

/**
 * Free-form maps (customer attributes, …) are stored as DynamoDB maps and read back into plain JavaScript
 * objects, so every key and value must survive JSON → object → DynamoDB → object → JSON unchanged, and a
 * map must stay small enough that the items holding it (the entity, its events) stay under 400 KB.
 */
export interface FreeFormLimits {
  maxEntries: number;
  /** In UTF-16 code units, like every other string length in the API. */
  maxKeyLength: number;
  /** The map's stored size, by DynamoDB's item-size arithmetic (see `storedSize`). */
  maxBytes: number;
}

/**
 * Names every plain object already has (`__proto__`, `constructor`, `toString`, …) and `prototype`: as own
 * keys they are dropped by object assignment, or change how parsers, marshallers and callers treat the object.
 */
const RESERVED_KEYS = new Set([...Object.getOwnPropertyNames(Object.prototype), 'prototype']);

/** DynamoDB stores UTF-8 only, so a lone UTF-16 surrogate has no stored form. */
const LONE_SURROGATE = /\p{Cs}/u;

/** DynamoDB rounds positive magnitudes below this to nothing (it refuses them). */
const SMALLEST_STORED_MAGNITUDE = 1e-130;

/**
 * A number both DynamoDB and JavaScript hold exactly: finite, not -0 (DynamoDB has no signed zero), within
 * ±(2^53 − 1) (the SDK refuses anything larger rather than lose digits), and not so small DynamoDB refuses it.
 * A double has at most 17 significant digits, far within DynamoDB's 38.
 */
export const isStorableNumber = (n: number): boolean =>
  Number.isFinite(n) && !Object.is(n, -0) && Math.abs(n) <= Number.MAX_SAFE_INTEGER && (n === 0 || Math.abs(n) >= SMALLEST_STORED_MAGNITUDE);

const utf8Bytes = (s: string) => new TextEncoder().encode(s).length;

/** DynamoDB's item-size arithmetic: UTF-8 bytes of strings and names, at most 21 bytes a number, 1 a boolean or null, 3 a map or list plus 1 an element. */
export const storedSize = (value: unknown): number => {
  if (typeof value === 'string') return utf8Bytes(value);
  if (typeof value === 'number') return 21;
  if (Array.isArray(value)) return value.reduce<number>((sum, v) => sum + storedSize(v) + 1, 3);
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).reduce((sum, [k, v]) => sum + utf8Bytes(k) + storedSize(v) + 1, 3);
  }
  return 1;
};

const keyProblem = (key: string, maxKeyLength: number): string | undefined => {
  if (key.length === 0) return 'Keys must not be empty';
  if (RESERVED_KEYS.has(key)) return `"${key}" is a reserved name`;
  if (LONE_SURROGATE.test(key)) return 'Keys must be valid Unicode (no lone surrogates)';
  if (key.length > maxKeyLength) return `Keys are at most ${maxKeyLength} characters`;
  return undefined;
};

/** Why a value (nested keys and values included) has no exact stored form, if it has none. */
const valueProblem = (value: unknown, maxKeyLength: number): string | undefined => {
  if (typeof value === 'number') return isStorableNumber(value) ? undefined : 'Must be a number stored exactly: not -0, |n| at most 9007199254740991, and 0 or at least 1e-130';
  if (typeof value === 'string') return LONE_SURROGATE.test(value) ? 'Must be valid Unicode (no lone surrogates)' : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  for (const [k, v] of Object.entries(value)) {
    const problem = (Array.isArray(value) ? undefined : keyProblem(k, maxKeyLength)) ?? valueProblem(v, maxKeyLength);
    if (problem) return problem;
  }
  return undefined;
};

/** Why a whole map breaks its limits, if it does: also for maps built by merging, not only for requests. */
export const limitProblem = (map: Record<string, unknown>, limits: FreeFormLimits): string | undefined => {
  if (Object.keys(map).length > limits.maxEntries) return `At most ${limits.maxEntries} entries`;
  if (storedSize(map) > limits.maxBytes) return `At most ${limits.maxBytes} bytes in all (UTF-8 keys and values)`;
  return undefined;
};

const check = <T>(problem: (value: T) => string | undefined) =>
  z.superRefine<T>((value, ctx) => {
    const message = problem(value);
    if (message) ctx.addIssue({ code: 'custom', message, input: value });
  });

/**
 * The one schema for free-form maps: `key` and `value` say what the map may hold, the builder adds what the
 * storage can hold. `JSON.parse` makes `"__proto__"` an own key, which zod's record would silently skip, so it
 * is refused before the record sees it.
 */
export const freeFormMap = <K extends z.ZodType<string, string>, V extends z.ZodType>(key: K, value: V, limits: FreeFormLimits) =>
  z
    .preprocess((input, ctx) => {
      if (input !== null && typeof input === 'object' && Object.hasOwn(input, '__proto__')) {
        ctx.addIssue({ code: 'custom', message: keyProblem('__proto__', limits.maxKeyLength)!, path: ['__proto__'], input });
      }
      return input;
    }, z.record(z.string().check(check((k: string) => keyProblem(k, limits.maxKeyLength))).pipe(key), value.check(check((v) => valueProblem(v, limits.maxKeyLength)))))
    .check(check((map: Record<string, unknown>) => limitProblem(map, limits)));
