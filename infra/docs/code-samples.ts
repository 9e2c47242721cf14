import * as z from 'zod';
import type { RouteHandler } from '../../functions/wiring/route-handlers';

/**
 * Each operation's `x-codeSamples` for the reference page: the call with curl and with the typed client
 * (`@parley/client`), its required parameters and body filled with sample values drawn from the handler's
 * own zod schemas. The TypeScript samples are compiled against the client in a test.
 */
export interface CodeSample {
  lang: string;
  label: string;
  source: string;
}

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minItems?: number;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  examples?: unknown[];
  format?: string;
  minimum?: number;
  exclusiveMinimum?: number;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
};

const SAMPLE_ID = '65a1b2c3d4e5f60718293a4b';

const byName: [RegExp, string][] = [
  [/(^id|Id|Ids)$/, SAMPLE_ID],
  [/^(events?|eventType)$/, 'inbox.conversation.created'],
  [/email/i, 'ada@example.com'],
  [/url/i, 'https://example.com/hooks/parley'],
  [/phone/i, '+15551234567'],
  [/colou?r/i, '#3366ff'],
  [/timezone/i, 'Europe/Paris'],
  [/locale/i, 'en-US'],
];

const byFormat: Record<string, string> = {
  email: 'ada@example.com',
  'date-time': '2026-01-31T09:00:00.000Z',
  date: '2026-01-31',
  uri: 'https://example.com/hooks/parley',
  url: 'https://example.com/hooks/parley',
};

const stringSample = (s: JsonSchema, name: string): string =>
  (s.format && byFormat[s.format]) ?? byName.find(([pattern]) => pattern.test(name))?.[1] ?? `example ${name}`.trim();

/** A value `s` accepts: required properties only (or, for a body with none required, its first property). */
const sample = (s: JsonSchema, name = '', fillOne = false): unknown => {
  if (s.const !== undefined) return s.const;
  if (s.examples?.length) return s.examples[0];
  if (s.enum?.length) return s.enum[0];
  const options = s.anyOf ?? s.oneOf;
  if (options) return sample(options.find((o) => o.type !== 'null') ?? options[0]!, name, fillOne);
  if (s.allOf) return Object.assign({}, ...s.allOf.map((part) => sample(part, name, fillOne)));
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  switch (type) {
    case 'object': {
      const entries = Object.entries(s.properties ?? {});
      const required = entries.filter(([key]) => s.required?.includes(key));
      const chosen = required.length || !fillOne ? required : entries.slice(0, 1);
      return Object.fromEntries(chosen.map(([key, value]) => [key, sample(value, key)]));
    }
    case 'array':
      return s.items ? Array.from({ length: Math.max(1, s.minItems ?? 1) }, () => sample(s.items!, name.replace(/s$/, ''))) : [];
    case 'string':
      return stringSample(s, name);
    case 'integer':
    case 'number':
      return s.minimum ?? (s.exclusiveMinimum === undefined ? 1 : s.exclusiveMinimum + 1);
    case 'boolean':
      return true;
    default:
      return s.default ?? null;
  }
};

const schemaOf = (zod: unknown) =>
  zod instanceof z.ZodType ? (z.toJSONSchema(zod, { io: 'input', unrepresentable: 'any' }) as JsonSchema) : undefined;

const samplesOf = (r: RouteHandler) => {
  const params = schemaOf(r.spec.params);
  const query = schemaOf(r.spec.query);
  const body = schemaOf(r.spec.body);
  return {
    path: (params ? sample(params) : {}) as Record<string, string>,
    query: (query ? sample(query) : {}) as Record<string, unknown>,
    body: body ? sample(body, '', true) : undefined,
    pages: Boolean(query?.properties && 'limit' in query.properties),
  };
};

const withPath = (path: string, values: Record<string, string>) =>
  path.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? SAMPLE_ID);

const curl = (r: RouteHandler, s: ReturnType<typeof samplesOf>): string => {
  const { method } = r.route;
  const search = new URLSearchParams(Object.entries(s.query).map(([k, v]): [string, string] => [k, String(v)])).toString();
  const lines = [
    `curl${method === 'GET' ? '' : ` -X ${method}`} "$PARLEY_URL${withPath(r.route.path, s.path)}${search ? `?${search}` : ''}"`,
  ];
  if (!r.spec.public) lines.push('-H "Authorization: Bearer $PARLEY_TOKEN"');
  if (!r.spec.public && r.spec.workspace !== false) lines.push('-H "x-workspace-id: $PARLEY_WORKSPACE"');
  if (s.body !== undefined) lines.push('-H "Content-Type: application/json"', `-d '${JSON.stringify(s.body).replaceAll("'", "'\\''")}'`);
  return lines.join(' \\\n  ');
};

const CLIENT_SETUP = `import { createParleyClient } from '@parley/client';

const parley = createParleyClient({
  baseUrl: process.env.PARLEY_URL!,
  token: process.env.PARLEY_TOKEN!,
  workspaceId: process.env.PARLEY_WORKSPACE,
});
`;

/** A value as a TypeScript literal: JSON, with the keys that are identifiers unquoted. */
const literal = (value: unknown) => JSON.stringify(value, null, 2).replace(/^(\s*)"([A-Za-z_$][\w$]*)":/gm, '$1$2:');

const typescript = (r: RouteHandler, s: ReturnType<typeof samplesOf>): string => {
  const path = r.route.path.replace(/^\/api\/v1/, '');
  const params = {
    ...(Object.keys(s.path).length ? { path: s.path } : {}),
    ...(Object.keys(s.query).length ? { query: s.query } : {}),
  };
  const init = { ...(Object.keys(params).length ? { params } : {}), ...(s.body === undefined ? {} : { body: s.body }) };
  const args = Object.keys(init).length ? `'${path}', ${literal(init)}` : `'${path}'`;
  if (r.spec.produces) {
    // A file is no success wrapper: openapi-fetch's own GET reads it as text.
    const file = literal({ ...init, parseAs: 'text' });
    return `${CLIENT_SETUP}\nconst { data: file } = await parley.GET('${r.route.path}', ${file});\nconsole.log(file);\n`;
  }
  // The public document is answered as itself, with no success wrapper.
  if (r.spec.public) return `${CLIENT_SETUP}\nconst document = await parley.get(${args});\nconsole.log(document.info.version);\n`;
  if (r.route.method === 'GET' && s.pages)
    return `${CLIENT_SETUP}\nfor await (const item of parley.list(${args})) {\n  console.log(item);\n}\n`;
  const method = r.route.method.toLowerCase();
  return `${CLIENT_SETUP}\nconst { data } = await parley.${method}(${args});\nconsole.log(data);\n`;
};

export const codeSamples = (r: RouteHandler): CodeSample[] => {
  const s = samplesOf(r);
  return [
    { lang: 'Shell', label: 'curl', source: curl(r, s) },
    { lang: 'TypeScript', label: '@parley/client', source: typescript(r, s) },
  ];
};
