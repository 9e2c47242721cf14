import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validCron } from '../../../shared/domain/workflows/cron';
import { createWorkflowSchema, updateWorkflowSchema } from '../../../shared/domain/workflows/definition';
import { categorize, retryDelaySeconds } from '../../../shared/domain/workflows/failure';
import { render } from '../../../shared/domain/workflows/template';
import { compare } from '../../../shared/domain/workflows/pure-nodes';
import { fieldErrors } from '../../../shared/http/validation';

const Create = createWorkflowSchema((name) => name === '*' || name === 'inbox.conversation.created', validCron);
const errorsOf = (body: object) => {
  const parsed = Create.safeParse(body);
  return parsed.success ? [] : fieldErrors(parsed.error, body).errors;
};

const http = (id: string, url = 'https://example.com/x') => ({ id, type: 'http_request', config: { method: 'POST', url } });
const valid = {
  name: 'w',
  trigger: { type: 'manual' },
  nodes: [
    { id: 'guard', type: 'try_catch', config: { categorize: true } },
    http('call'),
    {
      id: 'report',
      type: 'http_request',
      config: { method: 'POST', url: 'https://example.com/{{error.category}}', body: { m: '{{error.message}}' } },
    },
  ],
  edges: [
    { from: 'guard', to: 'call', branch: 'try' },
    { from: 'guard', to: 'report', branch: 'catch' },
  ],
};

describe('workflow definition validation', () => {
  it('accepts a structured graph with error.* templates inside its catch branch', () => {
    expect(errorsOf(valid)).toEqual([]);
  });

  it('names the failing edge or node by path', () => {
    const cases: [object, { path: string; message: RegExp }][] = [
      [
        { ...valid, edges: [...valid.edges, { from: 'call', to: 'nowhere', branch: 'next' }] },
        { path: 'edges[2].to', message: /Unknown node/ },
      ],
      [
        { ...valid, edges: [...valid.edges, { from: 'call', to: 'report', branch: 'next' }] },
        { path: 'edges[2].to', message: /already has an incoming edge/ },
      ],
      [
        { ...valid, edges: [valid.edges[0], { from: 'call', to: 'report', branch: 'true' }] },
        { path: 'edges[1].branch', message: /has no "true" branch/ },
      ],
      [
        { ...valid, edges: [valid.edges[0]] },
        { path: 'nodes[0]', message: /needs a "catch" branch/ },
      ],
      [
        { ...valid, nodes: [...valid.nodes, http('loose')] },
        { path: 'nodes[3].id', message: /Only one root/ },
      ],
      [
        {
          ...valid,
          nodes: [http('a'), http('b')],
          edges: [
            { from: 'a', to: 'b', branch: 'next' },
            { from: 'b', to: 'a', branch: 'next' },
          ],
        },
        { path: 'edges', message: /cycle/ },
      ],
      [
        {
          ...valid,
          nodes: [http('r'), http('a'), http('b')],
          edges: [
            { from: 'a', to: 'b', branch: 'next' },
            { from: 'b', to: 'a', branch: 'next' },
          ],
        },
        { path: 'edges[0].to', message: /forms a cycle/ },
      ],
      [
        { ...valid, nodes: [{ id: 'x', type: 'teleport', config: {} }], edges: [] },
        { path: 'nodes[0].type', message: /Invalid option/ },
      ],
      [
        { ...valid, nodes: [http('x', 'http://example.com')], edges: [] },
        { path: 'nodes[0].config.url', message: /https/ },
      ],
      [
        { ...valid, nodes: [{ ...http('x'), config: { method: 'GET', url: 'https://a.example', extra: 1 } }], edges: [] },
        { path: 'nodes[0].config.extra', message: /Unknown field/ },
      ],
      [
        {
          ...valid,
          nodes: [{ id: 'r', type: 'retry', config: { maxAttempts: 11, backoff: 'fixed', baseDelaySeconds: 1 } }, http('x')],
          edges: [{ from: 'r', to: 'x', branch: 'body' }],
        },
        { path: 'nodes[0].config.maxAttempts', message: /10/ },
      ],
      [
        { ...valid, nodes: [http('x', 'https://e.example/{{error.message}}')], edges: [] },
        { path: 'nodes[0].config.url', message: /only in scope inside a catch/ },
      ],
      [
        { ...valid, nodes: [http('x', 'https://e.example/{{process.env}}')], edges: [] },
        { path: 'nodes[0].config.url', message: /not trigger/ },
      ],
      [
        { ...valid, nodes: [http('x', 'https://e.example/{{nodes.ghost.output}}')], edges: [] },
        { path: 'nodes[0].config.url', message: /unknown node/ },
      ],
      [
        { ...valid, nodes: [http('x', 'https://e.example/{{vars.a')], edges: [] },
        { path: 'nodes[0].config.url', message: /Unclosed/ },
      ],
      [
        { ...valid, nodes: [http('x'), http('x')], edges: [] },
        { path: 'nodes[1].id', message: /Duplicate/ },
      ],
      [
        { ...valid, trigger: { type: 'schedule', cron: '* * *', timezone: 'Europe/Berlin' } },
        { path: 'trigger.cron', message: /cron/ },
      ],
      [
        { ...valid, trigger: { type: 'schedule', cron: '0 9 * * 1', timezone: 'Mars/Olympus' } },
        { path: 'trigger.timezone', message: /time zone/ },
      ],
      [
        { ...valid, trigger: { type: 'event', eventTypes: ['nope.nope.nope'] } },
        { path: 'trigger.eventTypes[0]', message: /Unknown event type/ },
      ],
      [
        { ...valid, nodes: Array.from({ length: 101 }, (_, i) => http(`n${i}`)), edges: [] },
        { path: 'nodes', message: /100/ },
      ],
    ];
    for (const [body, expected] of cases)
      expect(errorsOf(body)).toContainEqual({ path: expected.path, message: expect.stringMatching(expected.message) });
  });

  it('replaces nodes and edges only together on update', () => {
    const parsed = updateWorkflowSchema(() => true, validCron).safeParse({ nodes: valid.nodes });
    expect(parsed.success).toBe(false);
    expect(fieldErrors(parsed.error!, {}).errors).toContainEqual({ path: 'edges', message: expect.stringMatching(/together/) });
  });
});

describe('error categories and backoff', () => {
  it('matches categories case-insensitively, first match in the contract order, else other', () => {
    expect(categorize('connect econnrefused')).toBe('network');
    expect(categorize('HTTP 401 Unauthorized')).toBe('auth');
    expect(categorize('ETIMEDOUT: no response within 10 s')).toBe('network');
    // "401" and "429" both appear: auth comes first in the order.
    expect(categorize('401 after 429')).toBe('auth');
    expect(categorize('Rate-Limit hit')).toBe('rate_limit');
    expect(categorize('NOT FOUND')).toBe('not_found');
    expect(categorize('HTTP 503 Service Unavailable')).toBe('other');
  });

  it('gives the contract example with b=5: fixed 5,5,5; linear 5,10,15; exponential 5,10,20', () => {
    expect([1, 2, 3].map((n) => retryDelaySeconds('fixed', 5, n))).toEqual([5, 5, 5]);
    expect([1, 2, 3].map((n) => retryDelaySeconds('linear', 5, n))).toEqual([5, 10, 15]);
    expect([1, 2, 3].map((n) => retryDelaySeconds('exponential', 5, n))).toEqual([5, 10, 20]);
  });

  it('renders templates as data: missing paths are empty, objects are JSON, nothing is evaluated', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        const scope = { trigger: { s, o: { a: 1 } }, nodes: {}, vars: {} };
        expect(render('{{trigger.s}}|{{trigger.o}}|{{vars.missing}}|{{ trigger.constructor }}', scope)).toBe(`${s}|{"a":1}||`);
      }),
    );
  });
});

describe('condition operators', () => {
  it('compare numbers as numbers and everything else as text', () => {
    const c = (left: string | number, operator: Parameters<typeof compare>[0]['operator'], right?: string | number) =>
      compare({ left, operator, right });
    expect([c('10', 'gt', '9'), c('10', 'lt', 9), c(3, 'gte', '3'), c('2', 'lte', '1')]).toEqual([true, false, true, false]);
    expect([c('abc', 'contains', 'b'), c('abc', 'eq', 'abc'), c('abc', 'neq', 'abd'), c('', 'exists'), c('x', 'exists')]).toEqual([
      true,
      true,
      true,
      false,
      true,
    ]);
    expect(c('ten', 'gt', '9')).toBe(false);
  });
});
