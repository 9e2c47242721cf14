import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { fieldErrors } from '../../shared/http/validation';
import { ATTRIBUTE_LIMITS, mergeAttributes, mergeCustomers, newCustomer } from '../../shared/domain/contacts/customer';
import { freeFormMap, isStorableNumber, storedSize } from '../../shared/domain/free-form';

const limits = { maxEntries: 5, maxKeyLength: 16, maxBytes: 200 };
const Map = freeFormMap(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]), limits);
const Body = z.strictObject({ attributes: Map });

/** As the API sees it: the body text through JSON.parse, errors as the response lists them. */
const errorsOf = (json: string) => {
  const input = JSON.parse(json);
  const result = Body.safeParse(input);
  return result.success ? [] : fieldErrors(result.error, input).errors;
};

describe('free-form maps refuse what the storage cannot hold', () => {
  it.each(['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', '__defineGetter__'])(
    'refuses the key %s, naming it',
    (key) => {
      expect(errorsOf(`{"attributes": {"ok": 1, "${key}": 1}}`)).toEqual([{ path: `attributes.${key}`, message: `"${key}" is a reserved name` }]);
    },
  );

  it.each(['1e300', '9007199254740992', '-9007199254740992', '12345678901234567890123456789012345678901', '-0', '1e-131', '-5e-324'])(
    'refuses the number %s',
    (n) => {
      expect(errorsOf(`{"attributes": {"n": ${n}}}`)).toEqual([{ path: 'attributes.n', message: expect.stringMatching(/stored exactly/) }]);
    },
  );

  it.each(['9007199254740991', '-9007199254740991', '1e-130', '-1e-130', '0', '0.1', '123.456'])('accepts the number %s', (n) => {
    expect(errorsOf(`{"attributes": {"n": ${n}}}`)).toEqual([]);
  });

  it('refuses empty keys, keys over the length limit and strings with lone surrogates', () => {
    expect(errorsOf(`{"attributes": {"": 1, "${'k'.repeat(17)}": 1, "s": "\\ud800", "\\udc00": 1}}`).map((e) => e.path)).toEqual([
      'attributes.',
      `attributes.${'k'.repeat(17)}`,
      'attributes.s',
      'attributes.\udc00',
    ]);
    expect(errorsOf(`{"attributes": {"${'k'.repeat(16)}": "😀"}}`)).toEqual([]);
  });

  it('refuses a map with too many entries or too many bytes, on the map itself', () => {
    expect(errorsOf(JSON.stringify({ attributes: { a: 1, b: 1, c: 1, d: 1, e: 1, f: 1 } }))).toEqual([{ path: 'attributes', message: 'At most 5 entries' }]);
    expect(errorsOf(JSON.stringify({ attributes: { a: 'é'.repeat(100) } }))).toEqual([{ path: 'attributes', message: expect.stringMatching(/bytes/) }]);
  });

  it('checks nested values too, when the value schema lets objects and lists through', () => {
    const Nested = z.strictObject({ data: freeFormMap(z.string(), z.unknown(), limits) });
    const errors = (json: string) => {
      const input = JSON.parse(json);
      const result = Nested.safeParse(input);
      return result.success ? [] : fieldErrors(result.error, input).errors;
    };
    expect(errors('{"data": {"a": {"__proto__": 1}, "b": [1, 1e300], "c": {"d": [true, null, "ok"]}}}')).toEqual([
      { path: 'data.a', message: '"__proto__" is a reserved name' },
      { path: 'data.b', message: expect.stringMatching(/stored exactly/) },
    ]);
  });

  it('sizes values by DynamoDB item-size arithmetic', () => {
    expect(storedSize({ ab: 'é', n: 1, t: true, l: [null] })).toBe(3 + (2 + 2 + 1) + (1 + 21 + 1) + (1 + 1 + 1) + (1 + (3 + 1 + 1) + 1));
  });

  it('hands over every accepted map unchanged through JSON and a DynamoDB marshalling round trip', () => {
    const value = fc.oneof(fc.string({ maxLength: 10 }), fc.double(), fc.integer(), fc.boolean(), fc.constant(null));
    fc.assert(
      fc.property(fc.dictionary(fc.string({ maxLength: 12 }), value, { maxKeys: 6 }), (map) => {
        const input = JSON.parse(JSON.stringify({ attributes: map }));
        const result = Body.safeParse(input);
        if (!result.success) return;
        const out = result.data.attributes;
        expect(out).toEqual(input.attributes);
        expect(unmarshall(marshall({ out })).out).toEqual(out);
        for (const v of Object.values(out)) if (typeof v === 'number') expect(isStorableNumber(v)).toBe(true);
      }),
    );
  });
});

describe('customer attributes stay within their limits once merged', () => {
  const now = new Date('2026-01-01T00:00:00Z');
  const many = (prefix: string, n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}${i}`, i]));

  it('refuses a PATCH whose merged attributes would exceed the limits (422 on attributes)', () => {
    const current = many('a', ATTRIBUTE_LIMITS.maxEntries);
    expect(() => mergeAttributes(current, { b: 1 })).toThrow(expect.objectContaining({ code: 'VALIDATION_ERROR' }));
    expect(mergeAttributes(current, { a0: null, b: 1 })).toHaveProperty('b', 1);
  });

  it('refuses to merge two customers whose attributes together exceed the limits (409)', () => {
    const base = newCustomer({ attributes: many('a', 30) }, '0'.repeat(24), now);
    const mergee = newCustomer({ attributes: many('b', 30) }, '1'.repeat(24), now);
    expect(() => mergeCustomers(base, mergee, now)).toThrow(expect.objectContaining({ code: 'CONFLICT' }));
  });
});
