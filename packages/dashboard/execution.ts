import { actionButton, errorLine, facts, h, json, status, when } from './dom';
import { graphPicture } from './graph';
import { unwrap } from './session';
import { WORKFLOWS } from './workflows';
import type { ExecutionWithSteps as Execution, Step, Workflow } from './api';
import type { ParleyClient } from '../client/src/client';

const CANCELLABLE = new Set(['queued', 'running', 'waiting']);

/** The definition the execution ran on (its version), or undefined once the workflow is deleted. */
const definitionOf = async (api: ParleyClient, e: Execution): Promise<Workflow | undefined> => {
  const path = { params: { path: { id: e.workflowId } } };
  try {
    const { workflow } = await unwrap<{ workflow: Workflow }>(api.GET(`${WORKFLOWS}/{id}`, path));
    if (workflow.version === e.workflowVersion) return workflow;
    const { versions } = await unwrap<{ versions: Workflow[] }>(
      api.GET(`${WORKFLOWS}/{id}/versions`, { params: { ...path.params, query: { limit: 100 } } }),
    );
    return versions.find((v) => v.version === e.workflowVersion);
  } catch {
    return undefined;
  }
};

/** The `maxAttempts` of the innermost retry node whose body holds `nodeId`: the only thing that runs a step again. */
const retriesAround = (def: Workflow, nodeId: string): number | undefined => {
  for (let id = nodeId; ; ) {
    const edge = def.edges.find((e) => e.to === id);
    if (!edge) return undefined;
    const from = def.nodes.find((n) => n.id === edge.from);
    if (from?.type === 'retry' && edge.branch === 'body') {
      const { maxAttempts } = from.config;
      return typeof maxAttempts === 'number' ? maxAttempts : undefined;
    }
    id = edge.from;
  }
};

/** "attempt 2 of 3": a retry's `maxAttempts` counts retries after the first try, so it allows one more try. */
const attemptText = (attempt: number, maxRetries: number | undefined): string =>
  maxRetries === undefined || attempt > maxRetries + 1 ? `attempt ${attempt}` : `attempt ${attempt} of ${maxRetries + 1}`;

const delay = (ms: number) => (ms === 0 ? 'none' : ms < 1000 ? `${ms} ms` : `${ms / 1000} s`);

const stepView = (s: Step, def: Workflow | undefined) => {
  const node = def?.nodes.find((n) => n.id === s.nodeId);
  const retries = def && retriesAround(def, s.nodeId);
  return h(
    'li',
    { className: 'step', 'data-step': `${s.nodeId}:${s.attempt}` },
    h('h3', {}, `${node?.name ?? s.nodeId} `, h('span', { className: 'muted' }, s.nodeType), ' ', status(s.status)),
    facts([
      ['Attempt', attemptText(s.attempt, retries)],
      ['Waited before', delay(s.delayBeforeMs)],
      ['Started', when(s.startedAt)],
      ['Ended', when(s.endedAt)],
      ['Handled by', s.handledBy ?? '—'],
      ['Error', s.error ? `${s.error.category}: ${s.error.message}` : '—'],
    ]),
    h(
      'div',
      { className: 'io' },
      h('div', {}, h('h4', {}, 'Input (its config, templates as written)'), json(node?.config)),
      h('div', {}, h('h4', {}, 'Output'), json(s.output)),
    ),
  );
};

/** One execution: its graph, each step's input, output, attempt, delay and handler, and Retry or Cancel. */
export const executionPage = async (api: ParleyClient, main: HTMLElement, id: string): Promise<void> => {
  const path = { params: { path: { id } } };
  const { execution: e } = await unwrap<{ execution: Execution }>(api.GET(`${WORKFLOWS}/executions/{id}`, path));
  const def = await definitionOf(api, e);
  const error = errorLine();
  const again = () => executionPage(api, main, id);
  const control = (label: string, route: 'retry' | 'cancel') =>
    actionButton(label, error, async () => {
      await unwrap(api.POST(`${WORKFLOWS}/executions/{id}/${route}`, path));
      await again();
    });
  const latest = new Map(e.steps.map((s) => [s.nodeId, s.status]));
  main.replaceChildren(
    h('p', {}, h('a', { href: '#/workflows' }, '← Workflows')),
    h('h1', {}, `${def?.name ?? 'Deleted workflow'}: execution`),
    h(
      'section',
      {},
      facts([
        ['Execution', h('code', {}, e._id)],
        ['Status', status(e.status)],
        ['Version', `v${e.workflowVersion}`],
        ['Started', when(e.startedAt)],
        ['Ended', when(e.endedAt)],
        ...(e.error ? ([['Error', `${e.error.nodeId}: ${e.error.message}`]] as [string, string][]) : []),
      ]),
      h(
        'div',
        { className: 'actions' },
        e.status === 'failed' ? control('Retry from the failed step', 'retry') : null,
        CANCELLABLE.has(e.status) ? control('Cancel', 'cancel') : null,
        actionButton('Refresh', error, again),
      ),
      error,
    ),
    h(
      'section',
      {},
      h('h2', {}, 'Graph'),
      def
        ? h('div', { className: 'graph-box' }, graphPicture(def, latest))
        : h('p', { className: 'empty' }, 'The workflow was deleted: its graph is gone.'),
    ),
    h('section', {}, h('h2', {}, 'Trigger'), facts([['Type', e.trigger.type]]), json(e.trigger.payload)),
    h(
      'section',
      {},
      h('h2', {}, 'Steps'),
      e.steps.length
        ? h('ol', { className: 'steps' }, ...e.steps.map((s) => stepView(s, def)))
        : h('p', { className: 'empty' }, 'No step has run yet.'),
    ),
  );
};
