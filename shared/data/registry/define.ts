import type * as z from 'zod';
import type { Tenant } from '../../domain/auth/tenant';
import { itemCodec } from '../codec';
import type { IndexName } from '../table';

/** The key attributes of an item: the table's own and each global secondary index's. */
export type KeyAttribute = 'pk' | 'sk' | 'gsi1pk' | 'gsi1sk' | 'gsi2pk' | 'gsi2sk' | 'gsi3pk' | 'gsi3sk' | 'gsi4pk' | 'gsi4sk';

/** One read the code makes: what it reads, the key condition it reads by, and on which index. */
interface AccessPattern {
  read: string;
  by: string;
  index?: IndexName;
}

/**
 * One kind of stored item. `prefixes` are the literal key segments it declares (each declared by exactly
 * one entity, though others may share its partition); `keys` shows the shape of each key attribute, where
 * `<tenant>` stands for `WS#<tenant>` (see `tenantPk`) and `<…>` for a value. `itemTypes` are the values
 * of the `type` attribute its items carry. `personal` names the attributes that hold personal data (a key
 * attribute when the key itself holds it): what erasing a person must clear or delete; `[]` when none.
 */
export interface Entity<P extends string = string> {
  name: string;
  about: string;
  prefixes: readonly P[];
  keys: Partial<Record<KeyAttribute, string>>;
  patterns: readonly AccessPattern[];
  itemTypes: readonly string[];
  personal: readonly string[];
  /** A design choice the keys alone do not explain: what it costs and what it buys. */
  tradeOff?: string;
}

/** The `<hole>` names of a key template. */
type Holes<T> = T extends `${string}<${infer H}>${infer Rest}` ? H | Holes<Rest> : never;
/** The values a key template needs: a tenant where it says `<tenant>`, text elsewhere. */
export type KeyArgs<T> = { readonly [H in Holes<T>]: H extends 'tenant' ? Tenant : string };

type Templates = Partial<Record<KeyAttribute, string>> & { pk: string; sk: string };
type IndexOf<T extends Templates> = { [I in IndexName]: `${I}pk` extends keyof T ? I : never }[IndexName];

/** The literal segments and holes of a template, split once: `WS#<tenant>#TAG#<id>` → ['WS', {tenant}, 'TAG', {id}]. */
const compile = (template: string) => {
  const parts = template.split('#').map((part) => (part.startsWith('<') && part.endsWith('>') ? { hole: part.slice(1, -1) } : part));
  return {
    build: (args: Record<string, string>) => parts.map((p) => (typeof p === 'string' ? p : args[p.hole])).join('#'),
    /** The key's leading segments up to the first hole `args` does not fill, each followed by `#`: what a begins_with reads by. */
    prefix: (args: Record<string, string>) => {
      const given = parts.findIndex((p) => typeof p !== 'string' && args[p.hole] === undefined);
      const lead = parts.slice(0, given === -1 ? parts.length : given).map((p) => (typeof p === 'string' ? p : args[p.hole]));
      return lead.map((segment) => `${segment}#`).join('');
    },
    /** Whether a key has this shape: each literal segment in its place and a segment for each hole (the last takes the rest). */
    matches: (key: string) => {
      const segments = key.split('#');
      const restHole = typeof parts.at(-1) !== 'string';
      if (restHole ? segments.length < parts.length : segments.length !== parts.length) return false;
      return parts.every((p, i) => typeof p !== 'string' || segments[i] === p);
    },
    /** The holes of a built key: every hole but the last is one segment, the last takes the rest. */
    read: (key: string): Record<string, string> => {
      const segments = key.split('#');
      return Object.fromEntries(
        parts.flatMap((p, i) =>
          typeof p === 'string' ? [] : [[p.hole, i === parts.length - 1 ? segments.slice(i).join('#') : segments[i]!] as const],
        ),
      );
    },
  };
};

/**
 * The key builders of a set of key templates (see `declare`): what a module that only addresses an entity's items
 * needs, without the schema its items are read by (or the views that schema extends, built at a bundle's import).
 */
export const keysOf = <const T extends Templates>(templates: T, name = 'key') => {
  const compiled = Object.fromEntries(Object.entries(templates).map(([attribute, template]) => [attribute, compile(template)])) as Record<
    keyof T,
    ReturnType<typeof compile>
  >;
  /** One key attribute's value. */
  const build = <A extends keyof T & KeyAttribute>(attribute: A, args: KeyArgs<T[A]>): string =>
    compiled[attribute].build(args as Record<string, string>);
  return {
    build,
    /** The leading part of a key attribute's values, up to the first hole not given (see `compile`). */
    prefix: <A extends keyof T & KeyAttribute>(attribute: A, args: Partial<KeyArgs<T[A]>>): string =>
      compiled[attribute].prefix(args as Record<string, string>),
    /** The item's primary key. */
    key: (args: KeyArgs<T['pk']> & KeyArgs<T['sk']>) => ({ pk: build('pk', args), sk: build('sk', args) }),
    /** The item's key attributes in index `index`. */
    index: <I extends IndexOf<T>>(index: I, args: KeyArgs<T[`${I}pk`]> & KeyArgs<T[`${I}sk`]>) =>
      ({
        [`${index}pk`]: compiled[`${index}pk`].build(args as Record<string, string>),
        [`${index}sk`]: compiled[`${index}sk`].build(args as Record<string, string>),
      }) as Record<`${I}pk` | `${I}sk`, string>,
    /** Whether a stored key attribute's value has this template's shape (see `compile`). */
    matches: <A extends keyof T & KeyAttribute>(attribute: A, key: unknown): boolean =>
      typeof key === 'string' && compiled[attribute].matches(key),
    /** The values a stored key attribute was built from. */
    read: <A extends keyof T & KeyAttribute>(attribute: A, key: unknown): Record<Holes<T[A]>, string> => {
      if (typeof key !== 'string') throw new Error(`${name}: ${attribute} is not a string`);
      return compiled[attribute].read(key) as Record<Holes<T[A]>, string>;
    },
  };
};

/**
 * An entity declared once: its key templates (`<tenant>` is the tenant id, `<name>` a value, the rest literal
 * segments it or another declaration owns), the schema its items are read by, and what `Entity` states. The
 * repository builds every key and reads every item through what this returns, so a key is spelled in one place.
 * The schema is best given as a function (`schema: () => z.object(…)`): it is then built at its first use, not
 * at the import of every module that imports the entity, and a bundle that never reads the entity drops it
 * (`/* @__PURE__ *\/ declare(…)`; see `built` in `shared/domain/built.ts`).
 */
export const declare = <const P extends string, const T extends Templates, S extends z.ZodObject>(d: {
  name: string;
  about: string;
  prefixes: readonly P[];
  keys: T;
  patterns: readonly AccessPattern[];
  itemTypes: readonly string[];
  personal: readonly (keyof z.output<S> | KeyAttribute)[];
  schema: S | (() => S);
  tradeOff?: string;
}) => {
  let schema: S | undefined = typeof d.schema === 'function' ? undefined : d.schema;
  const schemaOf = () => (schema ??= (d.schema as () => S)());
  return {
    ...d,
    /** The schema its items are read by, built at the first read of it. */
    get schema(): S {
      return schemaOf();
    },
    personal: d.personal as readonly string[],
    /** Shown on the data-model page as the other entities are: `<tenant>` for the tenant's partition prefix. */
    keys: Object.fromEntries(Object.entries(d.keys).map(([a, t]) => [a, t.replace(/^WS#<tenant>#/, '<tenant>#')])) as Partial<
      Record<KeyAttribute, string>
    >,
    ...keysOf(d.keys, d.name),
    /** The item as its schema reads it (see `itemCodec`). */
    parse: itemCodec(schemaOf),
  };
};
