/**
 * Builds a value a JSON Schema of the document accepts out of the workspace's fixtures: a `$ref` to a view
 * takes that view's fixture, a property takes the value its hint holds (the fixture around it) or the
 * field's value in `fieldValues`. Beyond a schema's own `const`, `enum`, `default` and a date format, nothing
 * is made up: a field with no value anywhere throws, naming it, so the document never shows a placeholder.
 */
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  prefixItems?: JsonSchema[];
  minItems?: number;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  format?: string;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
}

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

const typesOf = (s: JsonSchema): string[] => (Array.isArray(s.type) ? s.type : s.type ? [s.type] : []);

const FORMATS: Record<string, string> = {
  'date-time': '2026-03-12T15:00:00.000Z',
  date: '2026-03-31',
};

export interface SampleSources {
  /** The document's `components/schemas`, for `$ref`s. */
  schemas: Record<string, JsonSchema>;
  /** A value per view (component name). */
  views: Record<string, unknown>;
  /** A value per field name, for fields no surrounding fixture holds. */
  fields: Record<string, unknown>;
}

export const sampler = ({ schemas, views, fields }: SampleSources) => {
  const resolve = (s: JsonSchema): JsonSchema => (s.$ref ? resolve(schemas[s.$ref.split('/').pop()!]!) : s);

  /** Whether `hint` could be a value of option `s`: by type, and for an object by its keys. */
  const fits = (s: JsonSchema, hint: unknown): boolean => {
    const o = resolve(s);
    if (o.anyOf ?? o.oneOf) return (o.anyOf ?? o.oneOf)!.some((x) => fits(x, hint));
    if (o.const !== undefined) return o.const === hint;
    if (o.enum) return o.enum.includes(hint);
    const types = typesOf(o);
    if (types.length === 0) return true;
    if (hint === null) return types.includes('null');
    if (Array.isArray(hint)) return types.includes('array');
    if (isObject(hint)) {
      if (!types.includes('object')) return false;
      // A fixture may hold more than the option takes: its required fields and its tags (`type`) decide.
      const tags = Object.entries(o.properties ?? {}).filter(([k, p]) => k in hint && (p.const !== undefined || p.enum));
      return (o.required ?? []).every((k) => k in hint) && tags.every(([k, p]) => fits(p, hint[k]));
    }
    if (typeof hint === 'number') return types.includes('number') || types.includes('integer');
    return types.includes(typeof hint);
  };

  const sample = (s: JsonSchema, hint: unknown, at: string): unknown => {
    if (s.$ref) {
      const name = s.$ref.split('/').pop()!;
      return sample(schemas[name]!, hint === undefined ? views[name] : hint, at);
    }
    if (s.const !== undefined) return s.const;
    if (s.enum) return s.enum.includes(hint) ? hint : s.enum[0];
    const options = s.anyOf ?? s.oneOf;
    if (options) {
      const chosen = hint === undefined ? options.find((o) => !typesOf(o).includes('null')) : options.find((o) => fits(o, hint));
      return sample(chosen ?? options[0]!, hint, at);
    }
    if (s.allOf) return Object.assign({}, ...s.allOf.map((part) => sample(part, hint, at)));
    const types = typesOf(s);
    if (hint === null && types.includes('null')) return null;
    const type = types.find((t) => t !== 'null');
    if (type === 'object') return object(s, hint, at);
    if (type === 'array') {
      if (Array.isArray(hint)) return hint.map((h, i) => sample(s.items ?? {}, h, `${at}[${i}]`));
      if (s.prefixItems) return s.prefixItems.map((p, i) => sample(p, undefined, `${at}[${i}]`));
      const item = sample(s.items ?? {}, undefined, `${at}[0]`);
      return Array.from({ length: Math.max(1, s.minItems ?? 1) }, () => item);
    }
    if (hint !== undefined && fits(s, hint)) return hint;
    if (type === 'string' && s.format && FORMATS[s.format]) return FORMATS[s.format];
    if (s.default !== undefined) return s.default;
    throw new Error(`No example value for ${at}: give the field a value in infra/docs/examples`);
  };

  const object = (s: JsonSchema, hint: unknown, at: string): Json => {
    const given = isObject(hint) ? hint : undefined;
    if (!s.properties) {
      if (given) return given;
      throw new Error(`No example value for the open object ${at}: give it a value in infra/docs/examples`);
    }
    const out: Json = {};
    for (const [key, property] of Object.entries(s.properties)) {
      // A view's own fixture comes before a value by field name (`data.tag` of a tag with counts is that view),
      // and a fixture that leaves an optional field out means it.
      const own = property.$ref && views[property.$ref.split('/').pop()!] !== undefined;
      const required = s.required?.includes(key);
      const held = given?.[key] !== undefined ? given[key] : own || (given && !required) ? undefined : fields[key];
      // A null the fixture holds where this schema takes none (a request field that is left out instead).
      const value = held === null && !fits(property, null) ? undefined : held;
      if (value === undefined && !required) continue;
      out[key] = sample(property, value, `${at}.${key}`);
    }
    return out;
  };

  return (schema: JsonSchema, hint: unknown, at: string) => sample(schema, hint, at);
};
