import * as z from 'zod';

/**
 * The examples of an OpenAPI document, each with the schema it illustrates, and what is wrong with one: its
 * issues against that schema as the document states it (JSON Schema 2020-12, `$ref`s into
 * `components/schemas` followed), and any placeholder a generator would show (`property1`, `"string"`).
 */

type Json = Record<string, unknown>;

export interface Example {
  /** Where it is, e.g. `paths./api/v1/tags.post.responses.201.content.application/json.example`. */
  where: string;
  value: unknown;
  schema: Json;
}

const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

const EXAMPLES = '#/components/examples/';

type Entry = { value?: unknown; $ref?: string };
type WithExamples = { components?: { examples?: Json } };

const entryValue = (document: WithExamples, entry: Entry) =>
  entry.$ref?.startsWith(EXAMPLES)
    ? (document.components?.examples?.[entry.$ref.slice(EXAMPLES.length)] as Entry | undefined)?.value
    : entry.value;

/** A media type's example: its `example`, or its first `examples` entry's value. */
export const exampleOf = (document: WithExamples, media: { example?: unknown; examples?: Record<string, Entry> }): unknown =>
  'example' in media ? media.example : entryValue(document, Object.values(media.examples ?? {})[0] ?? {});

/** Every `example`, and every entry of an `examples` map (one in `components/examples` followed), of every media type in the document. */
export const examplesOf = (document: WithExamples): Example[] => {
  const found: Example[] = [];
  const walk = (node: unknown, at: string) => {
    if (Array.isArray(node)) {
      for (const [i, item] of node.entries()) walk(item, `${at}[${i}]`);
      return;
    }
    if (!isObject(node)) return;
    if (isObject(node.schema)) {
      if ('example' in node) found.push({ where: `${at}.example`, value: node.example, schema: node.schema });
      for (const [name, entry] of Object.entries(isObject(node.examples) ? node.examples : {})) {
        found.push({ where: `${at}.examples.${name}`, value: entryValue(document, entry as Entry), schema: node.schema });
      }
    }
    for (const [key, value] of Object.entries(node)) walk(value, at ? `${at}.${key}` : key);
  };
  walk(document, '');
  return found;
};

/**
 * How many `example` or `examples` keys the document holds anywhere but as a property's name (and the
 * shared `components/examples`, reached through the media that refer to them): each must be one `examplesOf` finds.
 */
export const exampleKeys = (document: object): number => {
  let count = 0;
  const walk = (node: unknown, parentKey: string) => {
    if (Array.isArray(node)) {
      for (const item of node) walk(item, '');
      return;
    }
    if (!isObject(node)) return;
    for (const [key, value] of Object.entries(node)) {
      if ((key === 'example' || key === 'examples') && parentKey !== 'properties' && parentKey !== 'components')
        count += key === 'examples' && isObject(value) ? Object.keys(value).length : 1;
      walk(value, key);
    }
  };
  walk(document, '');
  return count;
};

const DEFS = '#/$defs/';
const withDefs = (value: unknown) => JSON.parse(JSON.stringify(value).replaceAll('"#/components/schemas/', `"${DEFS}`)) as Json;

/** A validator for schemas of `document`: the issues of a value against one, as `path: message`. */
export const schemaChecker = (document: { components?: { schemas?: Json } }) => {
  const $defs = withDefs(document.components?.schemas ?? {});
  return (schema: Json, value: unknown): string[] => {
    const zod = z.fromJSONSchema({ $schema: 'https://json-schema.org/draft/2020-12/schema', ...withDefs(schema), $defs } as never);
    const parsed = zod.safeParse(value);
    return parsed.success ? [] : parsed.error.issues.map((i) => `${['$', ...i.path].join('.')}: ${i.message}`);
  };
};

/** The placeholders in `value`: keys such as `property1`, and strings that are a type's name. */
export const placeholders = (value: unknown, at = '$'): string[] => {
  if (Array.isArray(value)) return value.flatMap((item, i) => placeholders(item, `${at}[${i}]`));
  if (typeof value === 'string') return /^(string|property\d+)$/.test(value) ? [`${at}: "${value}"`] : [];
  if (!isObject(value)) return [];
  return Object.entries(value).flatMap(([key, v]) => [
    ...(/^property\d+$/.test(key) ? [`${at}.${key}: placeholder key`] : []),
    ...placeholders(v, `${at}.${key}`),
  ]);
};
