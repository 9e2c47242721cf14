import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { built as lazily } from '../../../shared/domain/built-lazily';

/** What a deployed bundle's `built` gives (see `infra/constructs/bundling.ts`), against the schema itself. */
const counted = <T extends z.ZodType>(make: () => T) => {
  const calls = { n: 0 };
  const schema = lazily(() => {
    calls.n++;
    return make();
  });
  return { schema, calls };
};

const makeView = () =>
  z
    .strictObject({
      id: z.string().regex(/^[a-f0-9]{24}$/),
      name: z.string().min(1).describe('What it is called'),
      type: z.enum(['a', 'b']),
      tags: z.array(z.string()),
    })
    .meta({ id: 'LazyThing', description: 'A thing' });

const good = { id: 'a'.repeat(24), name: 'one', type: 'a', tags: ['x'] };
const bad = { id: 'nope', name: '', type: 'c', tags: 'x', extra: 1 };

describe('a view built at its first use (a deployed bundle’s `built`)', () => {
  it('is not built at its declaration, nor by a schema that names it, but by the first parse, once', () => {
    const { schema: view, calls } = counted(makeView);
    const answers = [z.strictObject({ things: z.array(view) }), z.union([view, z.null()]), z.nullable(view)];
    expect(answers).toHaveLength(3);
    expect(calls.n).toBe(0);
    const wrapped = z.strictObject({ thing: view });
    expect(calls.n).toBe(0);
    expect(wrapped.parse({ thing: good })).toEqual({ thing: good });
    expect(calls.n).toBe(1);
    expect(view.parse(good)).toEqual(good);
    expect(calls.n).toBe(1);
  });

  it('parses and refuses as the schema itself does, with the same issues', () => {
    const eager = makeView();
    const { schema: view } = counted(makeView);
    for (const input of [good, bad, null, { ...good, extra: true }]) {
      const a = eager.safeParse(input);
      const b = view.safeParse(input);
      expect(b.success).toBe(a.success);
      expect(b.error?.issues).toEqual(a.error?.issues);
      expect(z.strictObject({ x: view }).safeParse({ x: input }).error?.issues).toEqual(
        z.strictObject({ x: eager }).safeParse({ x: input }).error?.issues,
      );
    }
    expect(() => view.parse(bad)).toThrow(z.ZodError);
  });

  it('is an instance of its class, and its shape, extend, omit and pick work (what entity schemas build on it)', () => {
    const { schema: view } = counted(makeView);
    expect(view instanceof z.ZodObject).toBe(true);
    expect(view instanceof z.ZodType).toBe(true);
    expect('type' in view.shape).toBe(true);
    expect(Object.keys(view.shape)).toEqual(['id', 'name', 'type', 'tags']);
    const item = view.omit({ type: true }).extend({ itemType: view.shape.type, version: z.number() });
    expect(item.parse({ id: good.id, name: 'x', tags: [], itemType: 'b', version: 2 })).toEqual({
      id: good.id,
      name: 'x',
      tags: [],
      itemType: 'b',
      version: 2,
    });
    expect(item.safeParse({ ...good, version: 1 }).success).toBe(false);
    expect(view.pick({ name: true }).parse({ name: 'y' })).toEqual({ name: 'y' });
    expect(view.shape.tags.element.parse('t')).toBe('t');
    expect({ ...view.nullable().parse(null) }).toEqual({});
  });

  it('built on another built view, as views extend views', () => {
    const { schema: base, calls } = counted(makeView);
    const { schema: extended } = counted(() => base.extend({ count: z.number().int() }).meta({ id: 'LazyThingWithCount' }));
    expect(calls.n).toBe(0);
    expect(extended.parse({ ...good, count: 3 })).toEqual({ ...good, count: 3 });
    expect(calls.n).toBe(1);
  });

  it('has its metadata, description and JSON schema (refs by id included) as the schema itself', () => {
    const eager = makeView();
    const { schema: view } = counted(makeView);
    expect(view.meta()).toEqual(eager.meta());
    expect(view.description).toBe('A thing');
    const json = (s: z.ZodType) => z.toJSONSchema(z.strictObject({ a: s, b: z.array(s), c: s.nullable() }));
    expect(json(view)).toEqual(json(eager));
    expect(JSON.stringify(json(view))).toContain('"$ref":"#/$defs/LazyThing"');
  });

  it('answers the same to reflection: keys, descriptors (zod’s non-configurable `_zod` too) and spread', () => {
    const eager = makeView();
    const { schema: view } = counted(makeView);
    expect(Reflect.ownKeys(view)).toEqual(Reflect.ownKeys(eager));
    expect(Object.getOwnPropertyDescriptor(view, '_zod')?.configurable).toBe(false);
    expect(Object.keys({ ...view })).toEqual(Object.keys({ ...eager }));
    expect(Object.getPrototypeOf(view)).toBe(Object.getPrototypeOf(eager));
  });
});
