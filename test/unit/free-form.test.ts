import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { fieldErrors } from '../../shared/http/validation';
import { ATTRIBUTE_LIMITS, mergeAttributes, mergeCustomers, newCustomer } from '../../shared/domain/contacts/customer';
import { freeFormMap, isStorableNumber, jsonProblems, storedSize } from '../../shared/domain/free-form';
import { inexactNumbers } from '../../shared/domain/written-numbers';

const limits = { maxEntries: 5, maxKeyLength: 16, maxBytes: 200, maxDepth: 3 };
const Attributes = freeFormMap(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]), limits);
const Body = z.strictObject({ attributes: Attributes });

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
      expect(errorsOf(`{"attributes": {"ok": 1, "${key}": 1}}`)).toEqual([
        { path: `attributes.${key}`, message: `"${key}" is a reserved name` },
      ]);
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
    expect(errorsOf(JSON.stringify({ attributes: { a: 1, b: 1, c: 1, d: 1, e: 1, f: 1 } }))).toEqual([
      { path: 'attributes', message: 'At most 5 entries' },
    ]);
    expect(errorsOf(JSON.stringify({ attributes: { a: 'é'.repeat(100) } }))).toEqual([
      { path: 'attributes', message: expect.stringMatching(/bytes/) },
    ]);
  });

  it('checks nested values too, when the value schema lets objects and lists through', () => {
    const Nested = z.strictObject({ data: freeFormMap(z.string(), z.unknown(), limits) });
    const errors = (json: string) => {
      const input = JSON.parse(json);
      const result = Nested.safeParse(input);
      return result.success ? [] : fieldErrors(result.error, input).errors;
    };
    expect(errors('{"data": {"a": {"__proto__": 1}, "b": [1, 1e300], "c": {"d": [true, null, "ok"]}}}')).toEqual([
      { path: 'data.a.__proto__', message: '"__proto__" is a reserved name' },
      { path: 'data.b[1]', message: expect.stringMatching(/stored exactly/) },
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

describe('the walk', () => {
  const nested = (depth: number, arrays: boolean) =>
    JSON.parse(arrays ? `${'['.repeat(depth)}1${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`);

  it.each([10_000, 100_000])('refuses nesting %i deep once, at the first level past the limit, without recursing', (depth) => {
    for (const arrays of [true, false]) {
      const problems = jsonProblems(nested(depth, arrays), { maxDepth: 4 });
      expect(problems).toEqual([{ path: arrays ? [0, 0, 0, 0] : ['a', 'a', 'a', 'a'], message: 'Nests at most 4 levels deep' }]);
      expect(storedSize(nested(depth, arrays))).toBeGreaterThan(depth);
    }
  });

  it('lists problems in document order, at most 50', () => {
    expect(jsonProblems(JSON.parse('{"a":[1,-0,{"b":1e-200}],"c":"\\ud800"}'), { maxDepth: 8 }).map((p) => p.path)).toEqual([
      ['a', 1],
      ['a', 2, 'b'],
      ['c'],
    ]);
    expect(
      jsonProblems(
        Array.from({ length: 500 }, () => -0),
        { maxDepth: 8 },
      ),
    ).toHaveLength(50);
  });
});

describe('numbers as written', () => {
  it.each([
    ['{"big":1e309}', ['big']],
    ['{"over":9007199254740993}', ['over']],
    ['{"neg":-9007199254740993}', ['neg']],
    ['{"zero":-0}', ['zero']],
    ['{"zero":-0.0e5}', ['zero']],
    ['{"tiny":1e-400}', ['tiny']],
    ['{"long":0.10000000000000000001}', ['long']],
    ['{"x":[1,2,{"y\\"z":[3,123456789012345678901]}]}', [['x', 2, 'y"z', 1]]],
    ['{"n":1.0,"m":1E+2,"k":0.1,"j":100,"i":1.5e-7,"h":9007199254740991,"g":0,"f":-0.5}', []],
    ['{"s":"1e309 and 9007199254740993","t":true,"u":null,"1e309":false}', []],
  ])('%s', (text, paths) => {
    expect(inexactNumbers(text).map((p) => p.path)).toEqual(paths.map((p) => (Array.isArray(p) ? p : [p])));
  });

  it('accepts every storable double as JSON.stringify writes it, and refuses each written with more digits than it holds', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }).filter(isStorableNumber), (n) => {
        expect(inexactNumbers(JSON.stringify({ n, list: [n] }))).toEqual([]);
        if (n !== 0)
          expect(
            inexactNumbers(
              `{"n":${JSON.stringify(n).replace(/^(-?\d+)(\.\d+)?/, (_, w: string, f = '.') => `${w}${f}00000000000000000001`)}}`,
            ),
          ).toHaveLength(1);
      }),
    );
  });

  it('refuses every integer past 2^53 - 1, exact as a double or not', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 2n ** 53n, max: 2n ** 80n }), fc.boolean(), (n, negative) => {
        expect(inexactNumbers(`[${negative ? '-' : ''}${n}]`)).toEqual([{ path: [0], message: expect.stringMatching(/stored exactly/) }]);
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
