import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod';
import { wiring } from '../../functions/wiring';
import { loadRouteHandlers, type RouteHandler } from '../../functions/wiring/route-handlers';
import type { HttpRoute } from '../../functions/wiring/types';
import { ERROR_CODES } from '../../shared/domain/errors';
import { resolve } from '../../shared/http/route-match';

/**
 * The response gate: every answer the tests receive is held to what its route declares. A success is
 * `{success: true, data}` with `data` parsed by the route's `response` schema, an error is the contract's
 * error wrapper, and a field neither declares fails, however deep. Only the tests pay for it.
 */

/** Where each test process leaves its counts, for the global teardown to add up (unset outside `vitest`). */
export const GATE_DIR_ENV = 'PARLEY_RESPONSE_GATE_DIR';

export interface Answer {
  method: string;
  /** The request target: a path, with or without its query string. */
  path: string;
  status: number;
  body: unknown;
}

export interface GateCounts {
  /** Answers parsed against a declared schema (successes) or the error wrapper (errors). */
  checked: number;
  /** Successes whose body is a file by design, not JSON. */
  exempt: number;
}

const counts: GateCounts = { checked: 0, exempt: 0 };

const countsFile = process.env[GATE_DIR_ENV] && join(process.env[GATE_DIR_ENV], `${process.pid}-${randomUUID()}.json`);

let unsaved: NodeJS.Timeout | undefined;
/** Replaces the file whole (a write then a rename), so the global teardown never reads one half written. */
const save = () => {
  unsaved = undefined;
  if (!countsFile) return;
  writeFileSync(`${countsFile}.partial`, JSON.stringify(counts));
  renameSync(`${countsFile}.partial`, countsFile);
};
process.once('exit', () => unsaved && save());

const count = (kind: keyof GateCounts) => {
  counts[kind] += 1;
  // Saved shortly after, as a test process may be ended without an `exit` event; a write per answer was 6 % of a route-wide gate's CPU.
  unsaved ??= setTimeout(save, 1000).unref();
};

const ErrorAnswer = z.strictObject({
  success: z.literal(false),
  error: z.strictObject({ code: z.enum(ERROR_CODES), message: z.string(), details: z.record(z.string(), z.unknown()).optional() }),
});

const handlers = new Map<string, Promise<RouteHandler>>();

const declarationOf = (route: HttpRoute): Promise<RouteHandler> => {
  const key = `${route.method} ${route.path}`;
  let found = handlers.get(key);
  if (!found) {
    found = loadRouteHandlers([route]).then(([handler]) => handler!);
    handlers.set(key, found);
  }
  return found;
};

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Paths of fields in `sent` that a parse dropped from `kept`: what a non-strict object in the schema let through unchecked. */
const dropped = (sent: Json, kept: unknown, at: string): string[] => {
  if (Array.isArray(sent)) return Array.isArray(kept) ? sent.flatMap((item, i) => dropped(item, kept[i], `${at}[${i}]`)) : [];
  if (sent === null || typeof sent !== 'object' || kept === null || typeof kept !== 'object') return [];
  const out = kept as Record<string, unknown>;
  return Object.entries(sent).flatMap(([key, value]) =>
    key in out ? dropped(value, out[key], `${at}.${key}`) : [`${at}.${key}: not declared`],
  );
};

/** What is wrong with `body` as an answer of `schema`: its parse issues, or the fields the schema does not declare. */
export const answerProblems = (schema: z.ZodType, body: unknown): string[] => {
  const parsed = schema.safeParse(body);
  if (!parsed.success) return parsed.error.issues.map((i) => `${['$', ...i.path].join('.')}: ${i.message}`);
  return dropped(body as Json, parsed.data, '$');
};

interface Paged {
  total: number;
  page: number | null;
  limit: number;
  pages: number;
  hasMore: boolean;
  nextCursor: string | null;
}

/**
 * A list answer's `pagination` against what was asked (docs/guide/conventions.md): `cursor` with `page` is never
 * answered, a page fetched by `cursor` has no number, a page fetched by number is the one asked for (1 unless
 * given), `pages` is `ceil(total / limit)` and `hasMore` says whether a `nextCursor` follows.
 */
export const paginationProblems = (path: string, status: number, body: unknown): string[] => {
  const query = new URL(path, 'http://127.0.0.1').searchParams;
  const paged = (body as { data?: { pagination?: Paged } } | null)?.data?.pagination;
  if (status >= 300 || !paged || typeof paged !== 'object') return [];
  const problems: string[] = [];
  if (query.has('cursor') && query.has('page')) problems.push(`cursor with page answered ${status}, not 422 on page`);
  const page = query.has('cursor') ? null : Number(query.get('page') ?? 1);
  if (paged.page !== page) problems.push(`$.data.pagination.page: ${paged.page}, not ${page} as asked`);
  if (paged.pages !== Math.ceil(paged.total / paged.limit))
    problems.push(`$.data.pagination.pages: ${paged.pages} pages of ${paged.limit} for ${paged.total}`);
  if (paged.hasMore !== (paged.nextCursor !== null))
    problems.push(`$.data.pagination.hasMore: ${paged.hasMore} with nextCursor ${paged.nextCursor}`);
  return problems;
};

const schemaFor = async (answer: Answer): Promise<z.ZodType | 'exempt'> => {
  if (answer.status >= 400) return ErrorAnswer;
  // Resolved as the gateway resolves it: dot segments removed (`…/customers/.` is the list).
  const { pathname } = new URL(answer.path, 'http://127.0.0.1');
  const { match } = resolve(wiring.routes, answer.method, pathname);
  if (!match)
    throw new Error(`response gate: ${answer.method} ${pathname} answered ${answer.status}, but no route has that method and path`);
  const { spec } = await declarationOf(match.route);
  if (spec.produces) return 'exempt';
  if (spec.public) return spec.response as z.ZodType;
  return z.strictObject({ success: z.literal(true), data: spec.response as z.ZodType });
};

/** Throws, naming every problem, when `answer` is not what its route declares. */
export const checkAnswer = async (answer: Answer): Promise<void> => {
  const schema = await schemaFor(answer);
  if (typeof schema === 'string') {
    count(schema);
    return;
  }
  const problems = [...answerProblems(schema, answer.body), ...paginationProblems(answer.path, answer.status, answer.body)];
  if (problems.length > 0) {
    throw new Error(
      `response gate: ${answer.method} ${answer.path} answered ${answer.status} outside its declared schema:\n  ${problems.join('\n  ')}\n${JSON.stringify(answer.body).slice(0, 2000)}`,
    );
  }
  count('checked');
};

/** The gate for an answer read as text: a JSON body is checked; any other is the caller's to judge (a file, or a finding). */
export const checkJsonAnswer = async (method: string, path: string, res: { status: number; text: string }): Promise<void> => {
  let body: unknown;
  try {
    body = JSON.parse(res.text);
  } catch {
    return;
  }
  await checkAnswer({ method, path, status: res.status, body });
};

/** `fetch` with the gate on every answer, for callers that bring their own client (the typed one, raw requests). */
export const gatedFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
  const request = new Request(input, init);
  const response = await fetch(request);
  const url = new URL(request.url);
  await checkJsonAnswer(request.method, url.pathname + url.search, { status: response.status, text: await response.clone().text() });
  return response;
};

/** The counts every test process left in `dir`, added up. */
export const sumGateCounts = (dir: string): GateCounts =>
  readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .map((file) => JSON.parse(readFileSync(join(dir, file), 'utf8')) as GateCounts)
    .reduce((sum, c) => ({ checked: sum.checked + c.checked, exempt: sum.exempt + c.exempt }), { checked: 0, exempt: 0 });
