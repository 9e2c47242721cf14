import { categorize, retryDelaySeconds, type StepError } from './failure';
import type { Graph } from './graph';
import type { NodeConfig, NodeType } from './nodes';
import type { TemplateScope } from './template';

/** At most this many steps per execution (docs/guide/workflows.md). */
export const MAX_STEPS = 1000;

/**
 * The containers an execution is inside, innermost last. A frame is pushed when a container's sub-chain
 * starts and popped when it ends (or an error leaves it).
 */
type Frame =
  | { kind: 'branch'; container: string }
  | { kind: 'try'; container: string }
  | { kind: 'catch'; container: string; error: StepError }
  | { kind: 'retry'; container: string; retries: number }
  | { kind: 'on_error'; container: string };

/** What runs next: a node after `delayMs`; `handling` when it is an on_error node acting on an error (notify, escalate). */
interface Cursor {
  nodeId: string;
  delayMs: number;
  handling?: StepError;
}

export interface ExecutionState {
  cursor?: Cursor;
  frames: Frame[];
  vars: Record<string, unknown>;
  outputs: Record<string, unknown>;
  /** How many times each node has run: a node's next attempt number is one more. */
  runs: Record<string, number>;
  /** Errors an on_error node recorded and let pass (the execution ends `completed_with_errors`). */
  handledErrors: number;
  steps: number;
}

export type Outcome = { ok: true; output?: unknown } | { ok: false; message: string };

export type EndStatus = 'completed' | 'completed_with_errors' | 'failed';

type Intent = { kind: 'run'; cursor: Cursor } | { kind: 'end'; status: EndStatus; error?: StepError };

export interface Transition {
  state: ExecutionState;
  intent: Intent;
  /** The container that handled the step's failure (retried, caught or acted on it). */
  handledBy?: string;
  /** The step's error, categorized. */
  error?: StepError;
}

/** Container nodes run no step of their own: entering one starts its sub-chain at once. */
const CONTAINER_ENTRY: Partial<Record<NodeType, { frame: Frame['kind']; branch: 'try' | 'body' }>> = {
  try_catch: { frame: 'try', branch: 'try' },
  retry: { frame: 'retry', branch: 'body' },
  on_error: { frame: 'on_error', branch: 'body' },
};

/** `nodeId` as the next step: containers are entered (their frames pushed) down to the first node that runs. */
const enter = (graph: Graph, frames: Frame[], nodeId: string, delayMs: number): Cursor => {
  for (let id = nodeId; ; ) {
    const entry = CONTAINER_ENTRY[graph.node(id).type];
    if (!entry) return { nodeId: id, delayMs };
    frames.push(entry.frame === 'retry' ? { kind: 'retry', container: id, retries: 0 } : ({ kind: entry.frame, container: id } as Frame));
    id = graph.child(id, entry.branch)!;
  }
};

const ended = (state: ExecutionState): Intent => ({ kind: 'end', status: state.handledErrors > 0 ? 'completed_with_errors' : 'completed' });

/** After `nodeId` finished: its `next`, else the end of the enclosing container's sub-chain, and so on outwards. */
const after = (graph: Graph, state: ExecutionState, nodeId: string, delayMs: number): Intent => {
  for (let id = nodeId; ; ) {
    const next = graph.child(id, 'next');
    if (next) return { kind: 'run', cursor: enter(graph, state.frames, next, delayMs) };
    const frame = state.frames.pop();
    if (!frame) return ended(state);
    id = frame.container;
  }
};

/**
 * An error leaves the node that raised it: the innermost container able to act on it does (docs/guide/workflows.md
 * order): a retry with attempts left whose categories match re-runs its body after its backoff; a
 * try_catch runs its catch branch; a failing catch branch propagates; an on_error stops the execution or
 * records the error and continues after itself; at the root the execution fails.
 */
const propagate = (graph: Graph, state: ExecutionState, error: StepError): Omit<Transition, 'state' | 'error'> => {
  for (let frame = state.frames.pop(); frame; frame = state.frames.pop()) {
    const id = frame.container;
    if (frame.kind === 'retry') {
      const config = graph.node(id).config as NodeConfig<'retry'>;
      const n = frame.retries + 1;
      if (n <= config.maxAttempts && (!config.categories || config.categories.includes(error.category as never))) {
        state.frames.push({ ...frame, retries: n });
        const delayMs = retryDelaySeconds(config.backoff, config.baseDelaySeconds, n) * 1000;
        return { intent: { kind: 'run', cursor: enter(graph, state.frames, graph.child(id, 'body')!, delayMs) }, handledBy: id };
      }
    } else if (frame.kind === 'try') {
      state.frames.push({ kind: 'catch', container: id, error });
      return { intent: { kind: 'run', cursor: enter(graph, state.frames, graph.child(id, 'catch')!, 0) }, handledBy: id };
    } else if (frame.kind === 'on_error') {
      const { action } = graph.node(id).config as NodeConfig<'on_error'>;
      if (action === 'stop') return { intent: { kind: 'end', status: 'failed', error }, handledBy: id };
      state.handledErrors++;
      const intent: Intent =
        action === 'log' ? after(graph, state, id, 0) : { kind: 'run', cursor: { nodeId: id, delayMs: 0, handling: error } };
      return { intent, handledBy: id };
    }
  }
  return { intent: { kind: 'end', status: 'failed', error } };
};

const clone = (state: ExecutionState): ExecutionState => structuredClone(state);

export const initialState = (graph: Graph): ExecutionState => {
  const frames: Frame[] = [];
  const cursor = enter(graph, frames, graph.root, 0);
  return { cursor, frames, vars: {}, outputs: {}, runs: {}, handledErrors: 0, steps: 0 };
};

/** The attempt number of the step the cursor names: how many times that node has run, plus one. */
export const attemptOf = (state: ExecutionState): number => (state.runs[state.cursor!.nodeId] ?? 0) + 1;

/**
 * The interpreter: given the graph, the state (whose cursor names the step that just ran) and that step's
 * outcome, the next state and what to do next. Pure: the runner persists the result and acts on it.
 */
export const advance = (graph: Graph, before: ExecutionState, outcome: Outcome): Transition => {
  const state = clone(before);
  const cursor = state.cursor!;
  const node = graph.node(cursor.nodeId);
  state.runs[node.id] = (state.runs[node.id] ?? 0) + 1;
  state.steps++;
  delete state.cursor;
  let transition: Omit<Transition, 'state'>;
  if (cursor.handling) {
    // An on_error node's notify/escalate ran: whatever came of it, the execution goes on after the node.
    transition = { intent: after(graph, state, node.id, 0) };
  } else if (outcome.ok) {
    state.outputs[node.id] = outcome.output;
    transition = { intent: afterSuccess(graph, state, node.type, node.id, outcome.output) };
  } else {
    const error: StepError = { message: outcome.message, category: categorize(outcome.message), nodeId: node.id, nodeType: node.type };
    transition = { ...propagate(graph, state, error), error };
  }
  if (transition.intent.kind === 'run') {
    if (state.steps >= MAX_STEPS) {
      const error = {
        message: `Step limit reached: an execution runs at most ${MAX_STEPS} steps`,
        category: categorize(''),
        nodeId: node.id,
        nodeType: node.type,
      };
      transition = { ...transition, intent: { kind: 'end', status: 'failed', error } };
    } else {
      state.cursor = transition.intent.cursor;
    }
  }
  return { ...transition, state };
};

const afterSuccess = (graph: Graph, state: ExecutionState, type: NodeType, id: string, output: unknown): Intent => {
  if (type === 'set_variable') {
    const { name, value } = output as { name: string; value: unknown };
    state.vars[name] = value;
  }
  if (type === 'condition') {
    const branch = graph.child(id, (output as { result: boolean }).result ? 'true' : 'false');
    if (branch) {
      state.frames.push({ kind: 'branch', container: id });
      return { kind: 'run', cursor: enter(graph, state.frames, branch, 0) };
    }
  }
  return after(graph, state, id, type === 'wait' ? (output as { seconds: number }).seconds * 1000 : 0);
};

/** What templates of the node at the cursor see: the trigger, node outputs, variables and, in a catch branch, the error. */
export const scopeOf = (graph: Graph, state: ExecutionState, trigger: unknown): TemplateScope => {
  const catching = state.frames.findLast((f): f is Extract<Frame, { kind: 'catch' }> => f.kind === 'catch');
  const categorized = catching && (graph.node(catching.container).config as NodeConfig<'try_catch'>).categorize;
  return {
    trigger,
    nodes: Object.fromEntries(Object.entries(state.outputs).map(([id, output]) => [id, { output }])),
    vars: state.vars,
    ...(catching
      ? {
          error: {
            message: catching.error.message,
            category: categorized ? catching.error.category : '',
            nodeType: catching.error.nodeType,
            nodeId: catching.error.nodeId,
          },
        }
      : {}),
  };
};
