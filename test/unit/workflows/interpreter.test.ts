import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { categorize, retryDelaySeconds, type Category } from '../../../shared/domain/workflows/failure';
import { buildGraph } from '../../../shared/domain/workflows/graph';
import {
  advance,
  attemptOf,
  initialState,
  MAX_STEPS,
  scopeOf,
  type EndStatus,
  type Outcome,
} from '../../../shared/domain/workflows/interpreter';
import type { Edge, WorkflowNode } from '../../../shared/domain/workflows/nodes';

/**
 * Generated nested programs (leaves, conditions, retries, try-catches and on-errors, nested at random)
 * run through the interpreter and through a reference evaluator written directly from the contract's
 * prose with exceptions: both must produce the same steps (node, attempt, delay before it) and end.
 */
type Stmt =
  | { kind: 'leaf'; failUntil: number; message: string }
  | { kind: 'cond'; result: boolean; then: Stmt[]; otherwise: Stmt[] }
  | { kind: 'retry'; maxAttempts: number; backoff: 'fixed' | 'linear' | 'exponential'; base: number; categories?: Category[]; body: Stmt[] }
  | { kind: 'try'; categorize: boolean; body: Stmt[]; handler: Stmt[] }
  | { kind: 'on_error'; action: 'log' | 'stop' | 'notify'; body: Stmt[] };

const MESSAGES = [
  'ECONNREFUSED',
  'HTTP 401 Unauthorized',
  'HTTP 422 Unprocessable Entity',
  'HTTP 429 Too Many Requests',
  'HTTP 404 Not Found',
  'HTTP 503 Service Unavailable',
  'boom',
];
const CATS: Category[] = ['network', 'auth', 'validation', 'rate_limit', 'not_found'];

const program = fc.letrec<{ block: Stmt[]; stmt: Stmt }>((tie) => ({
  block: fc.array(tie('stmt'), { minLength: 1, maxLength: 3 }),
  stmt: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.record({ kind: fc.constant('leaf' as const), failUntil: fc.integer({ min: 0, max: 4 }), message: fc.constantFrom(...MESSAGES) }),
    fc.record({
      kind: fc.constant('cond' as const),
      result: fc.boolean(),
      // biome-ignore lint/suspicious/noThenProperty: the model mirrors the workflow definition's `then` branch
      then: tie('block'),
      otherwise: fc.oneof(fc.constant([]), tie('block')),
    }),
    fc.record(
      {
        kind: fc.constant('retry' as const),
        maxAttempts: fc.integer({ min: 1, max: 3 }),
        backoff: fc.constantFrom('fixed' as const, 'linear' as const, 'exponential' as const),
        base: fc.integer({ min: 0, max: 5 }),
        categories: fc.subarray(CATS, { minLength: 1 }),
        body: tie('block'),
      },
      { requiredKeys: ['kind', 'maxAttempts', 'backoff', 'base', 'body'] },
    ),
    fc.record({ kind: fc.constant('try' as const), categorize: fc.boolean(), body: tie('block'), handler: tie('block') }),
    fc.record({
      kind: fc.constant('on_error' as const),
      action: fc.constantFrom('log' as const, 'stop' as const, 'notify' as const),
      body: tie('block'),
    }),
  ) as fc.Arbitrary<Stmt>,
}));

interface Built {
  nodes: WorkflowNode[];
  edges: Edge[];
  stmts: Map<string, Stmt>;
}

/** Lays a program out as a graph: a block is a `next` chain, container bodies hang off their branch edges. */
const build = (block: Stmt[]): Built & { ids: Map<Stmt, string> } => {
  const built = { nodes: [] as WorkflowNode[], edges: [] as Edge[], stmts: new Map<string, Stmt>(), ids: new Map<Stmt, string>() };
  const chain = (stmts: Stmt[], from?: { id: string; branch: Edge['branch'] }) => {
    let link = from;
    for (const s of stmts) {
      const id = `n${built.nodes.length}`;
      built.ids.set(s, id);
      built.stmts.set(id, s);
      const node = (type: string, config: object) => ({ id, type, config }) as WorkflowNode;
      if (s.kind === 'leaf') built.nodes.push(node('http_request', {}));
      if (s.kind === 'cond') built.nodes.push(node('condition', {}));
      if (s.kind === 'retry')
        built.nodes.push(
          node('retry', { maxAttempts: s.maxAttempts, backoff: s.backoff, baseDelaySeconds: s.base, categories: s.categories }),
        );
      if (s.kind === 'try') built.nodes.push(node('try_catch', { categorize: s.categorize }));
      if (s.kind === 'on_error') built.nodes.push(node('on_error', { action: s.action }));
      if (link) built.edges.push({ from: link.id, to: id, branch: link.branch });
      if (s.kind === 'cond') {
        chain(s.then, { id, branch: 'true' });
        chain(s.otherwise, { id, branch: 'false' });
      }
      if (s.kind === 'retry' || s.kind === 'on_error') chain(s.body, { id, branch: 'body' });
      if (s.kind === 'try') {
        chain(s.body, { id, branch: 'try' });
        chain(s.handler, { id, branch: 'catch' });
      }
      link = { id, branch: 'next' };
    }
  };
  chain(block);
  return built;
};

interface Step {
  nodeId: string;
  attempt: number;
  delayBeforeMs: number;
  handling?: boolean;
}

/** The reference: the contract's order as plain exceptions. */
const reference = (block: Stmt[], ids: Map<Stmt, string>): { steps: Step[]; status: EndStatus } => {
  class Failure {
    constructor(readonly message: string) {}
  }
  class Stop {}
  const steps: Step[] = [];
  const runs = new Map<string, number>();
  let handled = 0;
  let delay = 0;
  const step = (id: string, handling = false) => {
    const attempt = (runs.get(id) ?? 0) + 1;
    runs.set(id, attempt);
    steps.push({ nodeId: id, attempt, delayBeforeMs: delay, ...(handling ? { handling } : {}) });
    delay = 0;
    return attempt;
  };
  const run = (stmts: Stmt[]) => stmts.forEach(exec);
  const exec = (s: Stmt): void => {
    const id = ids.get(s)!;
    if (s.kind === 'leaf') {
      if (step(id) <= s.failUntil) throw new Failure(s.message);
    } else if (s.kind === 'cond') {
      step(id);
      run(s.result ? s.then : s.otherwise);
    } else if (s.kind === 'retry') {
      for (let n = 1; ; n++) {
        try {
          run(s.body);
          return;
        } catch (e) {
          if (!(e instanceof Failure) || n > s.maxAttempts || (s.categories && !s.categories.includes(categorize(e.message) as Category)))
            throw e;
          delay = retryDelaySeconds(s.backoff, s.base, n) * 1000;
        }
      }
    } else if (s.kind === 'try') {
      try {
        run(s.body);
      } catch (e) {
        if (!(e instanceof Failure)) throw e;
        run(s.handler);
      }
    } else {
      try {
        run(s.body);
      } catch (e) {
        if (!(e instanceof Failure) || s.action === 'stop') throw e instanceof Failure ? new Stop() : e;
        handled++;
        if (s.action === 'notify') step(id, true);
      }
    }
  };
  try {
    run(block);
    return { steps, status: handled > 0 ? 'completed_with_errors' : 'completed' };
  } catch {
    return { steps, status: 'failed' };
  }
};

/** Drives the interpreter, answering each step as the program's script says. */
const interpret = (built: Built): { steps: Step[]; status: EndStatus; retryDelays: { nodeId: string; n: number; delayMs: number }[] } => {
  const graph = buildGraph(built.nodes, built.edges);
  let state = initialState(graph);
  const steps: Step[] = [];
  const retryDelays: { nodeId: string; n: number; delayMs: number }[] = [];
  for (;;) {
    const cursor = state.cursor!;
    const attempt = attemptOf(state);
    steps.push({ nodeId: cursor.nodeId, attempt, delayBeforeMs: cursor.delayMs, ...(cursor.handling ? { handling: true } : {}) });
    const s = built.stmts.get(cursor.nodeId)!;
    const outcome: Outcome =
      s.kind === 'leaf' && !cursor.handling && attempt <= s.failUntil
        ? { ok: false, message: s.message }
        : { ok: true, output: s.kind === 'cond' ? { result: s.result } : {} };
    const t = advance(graph, state, outcome);
    if (t.intent.kind === 'end') return { steps, status: t.intent.status, retryDelays };
    if (t.handledBy && graph.node(t.handledBy).type === 'retry') {
      const frame = t.state.frames.find((f) => f.container === t.handledBy && f.kind === 'retry') as { retries: number };
      retryDelays.push({ nodeId: t.handledBy, n: frame.retries, delayMs: t.intent.cursor.delayMs });
    }
    state = t.state;
  }
};

describe('the workflow interpreter', () => {
  it('runs any nesting of retry, try-catch, on-error and conditions exactly as the contract orders them', () => {
    fc.assert(
      fc.property(program.block, (block) => {
        const built = build(block);
        expect(interpret(built)).toMatchObject(reference(block, built.ids));
      }),
      { numRuns: 500 },
    );
  });

  it('waits before retry n exactly b (fixed), b·n (linear) or b·2^(n−1) (exponential) seconds', () => {
    fc.assert(
      fc.property(program.block, (block) => {
        const built = build(block);
        for (const { nodeId, n, delayMs } of interpret(built).retryDelays) {
          const s = built.stmts.get(nodeId) as Extract<Stmt, { kind: 'retry' }>;
          const b = s.base * 1000;
          expect(delayMs).toBe(s.backoff === 'fixed' ? b : s.backoff === 'linear' ? b * n : b * 2 ** (n - 1));
        }
      }),
    );
  });

  const contractExample: Stmt[] = [
    {
      kind: 'on_error',
      action: 'log',
      body: [
        {
          kind: 'try',
          categorize: true,
          body: [
            { kind: 'retry', maxAttempts: 2, backoff: 'fixed', base: 1, body: [{ kind: 'leaf', failUntil: 99, message: 'ECONNREFUSED' }] },
          ],
          handler: [{ kind: 'leaf', failUntil: 0, message: '' }],
        },
      ],
    },
  ];

  it('retries first, then catches, then runs the catch branch once (the contract example)', () => {
    const built = build(contractExample);
    const { steps, status } = interpret(built);
    expect(steps).toEqual([
      { nodeId: 'n3', attempt: 1, delayBeforeMs: 0 },
      { nodeId: 'n3', attempt: 2, delayBeforeMs: 1000 },
      { nodeId: 'n3', attempt: 3, delayBeforeMs: 1000 },
      { nodeId: 'n4', attempt: 1, delayBeforeMs: 0 },
    ]);
    expect(status).toBe('completed');
  });

  it('puts error.message, error.category, error.nodeType and error.nodeId of the raising node in scope in the catch branch', () => {
    const built = build(contractExample);
    const graph = buildGraph(built.nodes, built.edges);
    let state = initialState(graph);
    for (let i = 0; i < 3; i++) state = advance(graph, state, { ok: false, message: 'connect ECONNREFUSED 127.0.0.1:1' }).state;
    expect(state.cursor?.nodeId).toBe('n4');
    expect(scopeOf(graph, state, {}).error).toEqual({
      message: 'connect ECONNREFUSED 127.0.0.1:1',
      category: 'network',
      nodeType: 'http_request',
      nodeId: 'n3',
    });
  });

  it('does not retry an error of a category the retry does not list', () => {
    const block: Stmt[] = [
      {
        kind: 'retry',
        maxAttempts: 3,
        backoff: 'fixed',
        base: 1,
        categories: ['network'],
        body: [{ kind: 'leaf', failUntil: 9, message: 'HTTP 401 Unauthorized' }],
      },
    ];
    const { steps, status } = interpret(build(block));
    expect(steps).toHaveLength(1);
    expect(status).toBe('failed');
  });

  it(`fails an execution that reaches ${MAX_STEPS} steps`, () => {
    const block: Stmt[] = Array.from(
      { length: 3 },
      () => ({ kind: 'retry', maxAttempts: 10, backoff: 'fixed', base: 0, body: [{ kind: 'leaf', failUntil: 0, message: '' }] }) as Stmt,
    );
    const built = build(block);
    const graph = buildGraph(built.nodes, built.edges);
    const state = { ...initialState(graph), steps: MAX_STEPS - 1 };
    const t = advance(graph, state, { ok: true });
    expect(t.intent).toMatchObject({ kind: 'end', status: 'failed', error: { message: expect.stringContaining('Step limit') } });
  });
});
