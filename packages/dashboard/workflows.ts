import type { Execution, Workflow } from './api';
import { actionButton, empty, errorLine, h, status, table, when } from './dom';
import { unwrap } from './session';
import type { ParleyClient } from '../client/src/client';

export const WORKFLOWS = '/api/v1/workflows';

const triggerText = (t: Workflow['trigger']) =>
  t.type === 'event' ? `on ${t.eventTypes.join(', ')}` : t.type === 'schedule' ? `every ${t.cron}` : 'by hand';

/** Workflows by name with activate and deactivate, and the latest executions, each opening its view. */
export const workflowsPage = async (api: ParleyClient, main: HTMLElement): Promise<void> => {
  const [{ workflows }, { executions }] = await Promise.all([
    unwrap<{ workflows: Workflow[] }>(api.GET(WORKFLOWS, { params: { query: { limit: 100 } } })),
    unwrap<{ executions: Execution[] }>(api.GET(`${WORKFLOWS}/executions`, { params: { query: { limit: 50 } } })),
  ]);
  const error = errorLine();
  const names = new Map(workflows.map((w) => [w._id, w.name]));
  const flip = (w: Workflow) =>
    actionButton(w.active ? 'Deactivate' : 'Activate', error, async () => {
      await unwrap(api.POST(`${WORKFLOWS}/{id}/${w.active ? 'deactivate' : 'activate'}`, { params: { path: { id: w._id } } }));
      await workflowsPage(api, main);
    });
  main.replaceChildren(
    h('h1', {}, 'Workflows'),
    error,
    h(
      'section',
      {},
      h('h2', {}, 'Workflows'),
      workflows.length
        ? table(
            ['Name', 'Trigger', 'Version', 'State', 'Updated', ''],
            workflows.map((w) => [
              w.name,
              triggerText(w.trigger),
              `v${w.version}`,
              status(w.active ? 'active' : 'inactive'),
              when(w.updatedAt),
              flip(w),
            ]),
          )
        : empty('No workflows yet. Create one with POST /api/v1/workflows (see the API reference).'),
    ),
    h(
      'section',
      {},
      h('h2', {}, 'Recent executions'),
      executions.length
        ? table(
            ['Workflow', 'Execution', 'Status', 'Started', 'Ended'],
            executions.map((e) => [
              `${names.get(e.workflowId) ?? 'deleted workflow'} v${e.workflowVersion}`,
              h('a', { href: `#/workflows/executions/${e._id}` }, e._id),
              status(e.status),
              when(e.startedAt),
              when(e.endedAt),
            ]),
          )
        : empty('No executions yet. A workflow runs when its trigger fires, or by POST …/workflows/{id}/trigger.'),
    ),
  );
};
