/// <reference lib="dom" />
import { h, status, table, when } from './dom';
import { unwrap } from './session';
import type { ParleyClient } from '../client/src/client';

interface Step {
  nodeId: string;
  nodeType: string;
  attempt: number;
  status: string;
  startedAt: string;
  endedAt: string;
  error?: { message: string };
}

interface Execution {
  _id: string;
  workflowId: string;
  workflowVersion: number;
  status: string;
  startedAt: string;
  endedAt?: string;
  error?: { message: string };
  steps?: Step[];
}

/** Workflows: recent executions, each opening its step history. */
export const workflowsPage = async (api: ParleyClient, main: HTMLElement): Promise<void> => {
  const { executions } = await unwrap<{ executions: Execution[] }>(api.GET('/api/v1/workflows/executions', { params: { query: { limit: 50 } } }));
  const rows = executions.map((e) => [
    h('a', { href: `#/workflows/executions/${e._id}` }, e._id),
    `${e.workflowId} v${e.workflowVersion}`,
    status(e.status),
    when(e.startedAt),
    when(e.endedAt),
  ]);
  main.replaceChildren(
    h('h1', {}, 'Workflow executions'),
    h('section', {}, executions.length ? table(['Execution', 'Workflow', 'Status', 'Started', 'Ended'], rows) : h('p', {}, 'No executions yet.')),
  );
};

export const executionPage = async (api: ParleyClient, main: HTMLElement, id: string): Promise<void> => {
  const { execution: e } = await unwrap<{ execution: Execution }>(api.GET('/api/v1/workflows/executions/{id}', { params: { path: { id } } }));
  main.replaceChildren(
    h('h1', {}, `Execution ${e._id}`),
    h('p', {}, h('a', { href: '#/workflows' }, '← Workflows'), ' ', status(e.status), e.error ? ` ${e.error.message}` : ''),
    h(
      'section',
      {},
      h('h2', {}, 'Steps'),
      table(
        ['Node', 'Type', 'Attempt', 'Status', 'Started', 'Ended', 'Error'],
        (e.steps ?? []).map((s) => [s.nodeId, s.nodeType, s.attempt, status(s.status), when(s.startedAt), when(s.endedAt), s.error?.message ?? '']),
      ),
    ),
  );
};
