import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from '../support/api';
import { startReceiver, type Receiver } from '../support/https-receiver';
import {
  FUZZ_HINTS,
  MAX_ANSWER_MS,
  TokenPool,
  fuzzRoute,
  realCursorsFor,
  realIdsFor,
  send,
  sharedIds,
  violations,
  type FuzzCase,
  type RouteStats,
} from '../support/fuzz';
import { makeFactories, type ResourceFactory } from '../support/resource-factories';
import { loadRoutes } from '../support/routes';
import { useTestStack } from '../support/stack';
import { tokenFor } from '../support/tenants';
import * as z from 'zod';
import { jsonSchemaOf, objectOf } from '../support/json-arbitraries';
import { conformance } from '../support/conformance';
import { openApiDocument } from '../../infra/docs/document';

/**
 * Schema fuzz (docs/contributing/testing.md): requests generated from each route's zod schemas (valid, mutated, hostile,
 * malformed, oversized, mistyped; far dates, huge ranges, integer spellings, prototype-named parameters,
 * deep nesting, numbers past 2^53 and a double's range) sent through the real local gateway never get a 5xx
 * or a non-JSON answer, each within 2 s, every error is the contract's wrapper, and the answers the contract
 * fixes (400 for malformed JSON, 413 over 256 KB, 422 for an inexact number or a parameter it must name…)
 * are the ones given. `npm run fuzz` runs the same cases 10 000 times per route.
 */
const CASES_PER_ROUTE = Number(process.env.GATE_FUZZ_CASES ?? 30);
// A fixed seed per run of the gate keeps failures reproducible; FUZZ_SEED explores others.
const SEED = Number(process.env.FUZZ_SEED ?? 20261122);

const routes = await loadRoutes();
const document = await openApiDocument();
const env = useTestStack({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
let workspaceId: string;
let receiver: Receiver;
let factories: Record<string, ResourceFactory> = {};

let shared: Promise<Map<string, string[]>>;

/** What the per-route tests sent, for the check that the cases covered every class (the last test). */
const sent = { byRoute: new Map<string, Set<string>>(), kinds: new Set<string>(), marks: new Set<string>(), named: 0 };
const DEEP = [`${'{"a":'.repeat(10_000)}1`, `${'['.repeat(10_000)}1`];
const BIG_NUMBERS = ['9007199254740993', '1e400', '2e308'];
const record = (route: string, c: FuzzCase) => {
  const coarse = sent.byRoute.get(route) ?? new Set<string>();
  sent.byRoute.set(route, coarse);
  for (const kind of c.kinds) {
    sent.kinds.add(kind);
    coarse.add(kind.split(':')[0]!.replace(/^path\..*/, 'path'));
  }
  const text = c.body?.toString('utf8') ?? '';
  if (DEEP.some((d) => text.includes(d))) sent.marks.add('nesting');
  for (const n of BIG_NUMBERS) if (text.includes(n)) sent.marks.add(n);
  if (c.expect?.status === 422) sent.marks.add('expects 422');
  if (/(from|to)=(0000|9999)/.test(c.target)) sent.marks.add('far year');
  if (c.names) sent.named++;
};

/** Cases per input class and the slowest answer over every route, printed once the gate has run. */
const classes = new Map<string, number>();
let slowest: RouteStats['slowest'] = { ms: 0, case: '' };
let stalls = 0;
const tally = (stats: RouteStats) => {
  for (const [kind, n] of stats.classes) classes.set(kind, (classes.get(kind) ?? 0) + n);
  if (stats.slowest.ms > slowest.ms) slowest = stats.slowest;
  stalls += stats.stalls;
};
afterAll(async () => {
  await receiver?.stop();
  const rows = [...classes].sort(([a], [b]) => a.localeCompare(b)).map(([kind, n]) => `  ${kind.padEnd(32)}${n}`);
  process.stdout.write(
    `schema fuzz cases per class:\n${rows.join('\n')}\nslowest answer: ${slowest.ms} ms (limit ${MAX_ANSWER_MS} ms) for ${slowest.case}\n${stalls} answers over the limit once, sent again\n${receiver?.received.length ?? 0} webhook deliveries received\n`,
  );
});

beforeAll(async () => {
  // The fuzzed workspace's subscriptions point at a receiver that answers 200: each event it causes is delivered
  // once, where a refused address kept the delivery worker retrying every one of them for the whole file.
  receiver = await startReceiver();
  factories = makeFactories({ webhookUrl: receiver.url });
  const t = await env.tenant();
  workspaceId = t.workspaceId;
  // Ids for bodies, made once; a route's own path ids are made fresh for it (DELETE routes use theirs up).
  shared = sharedIds(t.api, factories);
  await shared;
});

describe('the schema fuzz', () => {
  it('recognises a 500, a non-JSON answer and a missed fixed answer as violations', () => {
    const json = {
      'content-type': 'application/json',
      'x-content-type-options': 'nosniff',
      'x-request-id': 'r',
      'x-ratelimit-limit': '100',
      'x-ratelimit-remaining': '9',
      'x-ratelimit-reset': '1',
    };
    expect(
      violations({}, { status: 500, headers: json, text: '{"success":false,"error":{"code":"INTERNAL_ERROR","message":"x"}}' }),
    ).toEqual(['status 500']);
    expect(violations({}, { status: 400, headers: { ...json, 'content-type': 'text/plain' }, text: 'Bad' })[0]).toMatch(/content-type/);
    expect(violations({}, { status: 422, headers: json, text: '{"error":"x"}' })[0]).toMatch(/not the error wrapper/);
    const fixed = { expect: { status: 400, code: 'BAD_REQUEST', why: 'malformed JSON is 400' } };
    expect(violations(fixed, { status: 200, headers: json, text: '{"success":true,"data":{}}' })[0]).toMatch(/expected 400 BAD_REQUEST/);
    expect(
      violations(fixed, { status: 400, headers: json, text: '{"success":false,"error":{"code":"BAD_REQUEST","message":"m"}}' }),
    ).toEqual([]);
    expect(
      violations({}, { status: 200, headers: { ...json, 'x-ratelimit-limit': undefined }, text: '{"success":true,"data":{}}' }),
    ).toEqual(['no X-RateLimit-* headers']);
    expect(
      violations({}, { status: 200, headers: { ...json, 'x-content-type-options': undefined }, text: '{"success":true,"data":{}}' }),
    ).toEqual(['no X-Content-Type-Options: nosniff']);
    const refused = (path: string) =>
      `{"success":false,"error":{"code":"VALIDATION_ERROR","message":"m","details":{"errors":[{"path":"${path}","message":"Unknown field"}]}}}`;
    expect(violations({ names: '__proto__' }, { status: 200, headers: json, text: '{"success":true,"data":{}}' })[0]).toMatch(
      /naming the query parameter "__proto__"/,
    );
    expect(violations({ names: '__proto__' }, { status: 422, headers: json, text: refused('other') })[0]).toMatch(/naming/);
    expect(violations({ names: '__proto__' }, { status: 422, headers: json, text: refused('__proto__') })).toEqual([]);
  });

  it('answers malformed JSON on a body route with 400 through the same sender and oracle', async () => {
    const { token } = await tokenFor([workspaceId], ['admin:all']);
    const c = { method: 'POST', target: '/api/v1/tags', headers: { 'content-type': 'application/json' }, body: Buffer.from('{"name":') };
    const res = await send(env.stack.baseUrl, c, { token, workspaceId });
    expect(res.status).toBe(400);
    expect(violations({ expect: { status: 400, code: 'BAD_REQUEST', why: '' } }, res)).toEqual([]);
  });

  // Found by the fuzz: a cursor naming the right partition with a key attribute emptied, missing or over
  // DynamoDB's size limit reached the Query and failed it (500). Every list route with a cursor refuses them.
  const cursorLists = routes.filter(
    (r) => r.route.method === 'GET' && !r.pathParams.length && jsonSchemaOf(r.spec.query ?? z.object({})).properties?.cursor,
  );
  for (const list of cursorLists) {
    it(`${list.key} refuses a cursor whose keys are emptied, missing, extra or oversized with 422 on cursor`, async () => {
      const { token } = await tokenFor([workspaceId], ['admin:all']);
      const api = client(env.stack.baseUrl, { token, workspaceId });
      const factory = factories[`${list.route.path}/{id}`];
      if (!factory) throw new Error(`no resource factory for ${list.route.path}/{id}`);
      await factory.create(api);
      await factory.create(api);
      const first = await api.get(`${list.route.path}?limit=1`);
      const real = JSON.parse(Buffer.from(first.body.data.pagination.nextCursor, 'base64url').toString()) as Record<string, string>;
      expect((await api.get(`${list.route.path}?limit=1&cursor=${first.body.data.pagination.nextCursor}`)).status).toBe(200);
      const names = Object.keys(real);
      const variants = [
        ...names.map((k) => ({ ...real, [k]: '' })),
        ...names.map((k) => objectOf(Object.entries(real).filter(([n]) => n !== k))),
        ...names.filter((k) => k !== names[0]).map((k) => ({ ...real, [k]: `${real[k]}${'x'.repeat(1100)}` })),
        { ...real, extra: 'x' },
      ];
      for (const v of variants) {
        const res = await api.get(`${list.route.path}?limit=1&cursor=${Buffer.from(JSON.stringify(v)).toString('base64url')}`);
        expect(res.status, `${JSON.stringify(v).slice(0, 200)} → ${JSON.stringify(res.body)}`).toBe(422);
        expect(res.body.error.details.errors.map((e: { path: string }) => e.path)).toEqual(['cursor']);
      }
    });
  }

  for (const [i, route] of routes.entries()) {
    it(`${route.key} answers ${CASES_PER_ROUTE} generated requests without a 5xx, always in JSON, errors in the contract's wrapper`, async () => {
      const { token } = await tokenFor([workspaceId], ['admin:all']);
      const api = client(env.stack.baseUrl, { token, workspaceId });
      const ids = await realIdsFor(api, route, factories, shared);
      const cursors = await realCursorsFor(api, route, ids);
      const stats = await fuzzRoute(env.stack.baseUrl, route, new TokenPool(workspaceId), {
        cases: CASES_PER_ROUTE,
        seed: SEED + i * 7919,
        opts: { ids, hints: FUZZ_HINTS, cursors },
        conform: (res) => conformance(document, route.route.method, route.route.path, { ...res, bodyLength: res.text.length }),
        observe: (c) => record(route.key, c),
      });
      tally(stats);
      expect(stats.cases).toBe(CASES_PER_ROUTE);
      const report = stats.failures.map((f) => `${f.case}\n    → ${f.status}: ${f.problems.join('; ')}\n    ${f.body}`).join('\n');
      expect(stats.failing, `${stats.failing} of ${stats.cases} cases broke the contract:\n${report}`).toBe(0);
    });
  }

  it('sent every route requests of each kind its inputs allow, and every input class that once broke the service', () => {
    for (const route of routes) {
      const kinds = sent.byRoute.get(route.key);
      expect(kinds, route.key).toBeDefined();
      if (route.pathParams.length) expect(kinds, route.key).toContain('path');
      expect(kinds, route.key).toContain('query');
      if (route.spec.body) expect(kinds, route.key).toContain('body');
    }
    // Far dates, huge ranges, integer spellings, prototype names, nesting to 10,000, numbers past 2^53 and past a double's range.
    for (const kind of ['query:far-date', 'query:huge-range', 'query:integer-spelling', 'query:proto-name'])
      expect(sent.kinds).toContain(kind);
    for (const mark of ['nesting', ...BIG_NUMBERS, 'expects 422', 'far year']) expect(sent.marks, mark).toContain(mark);
    expect(sent.named).toBeGreaterThan(routes.length / 2);
  });
});
