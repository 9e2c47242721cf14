/// <reference lib="dom" />
import { h, status, table, when } from './dom';
import { unwrap } from './session';
import type { ParleyClient } from '../client/src/client';

interface Subscription {
  _id: string;
  url: string;
  events: string[];
  active: boolean;
  createdAt: string;
}

interface Attempt {
  attemptNumber: number;
  status: string;
  httpStatus?: number;
  latency: number;
  failureReason?: string;
  at: string;
}

interface Delivery {
  deliveryId: string;
  eventType: string;
  status: string;
  httpStatus: number | null;
  attemptNumber: number;
  failureReason: string | null;
  nextRetryAt: string | null;
  createdAt: string;
  attempts?: Attempt[];
}

/** Webhooks: the workspace's subscriptions, each linking to its delivery log. */
export const webhooksPage = async (api: ParleyClient, main: HTMLElement): Promise<void> => {
  const { subscriptions } = await unwrap<{ subscriptions: Subscription[] }>(api.GET('/api/v1/integrations/webhooks'));
  const rows = subscriptions.map((s) => [
    h('a', { href: `#/webhooks/${s._id}` }, s.url),
    s.events.join(', '),
    status(s.active ? 'active' : 'inactive'),
    when(s.createdAt),
  ]);
  main.replaceChildren(
    h('h1', {}, 'Webhooks'),
    h('section', {}, subscriptions.length ? table(['Endpoint', 'Events', 'State', 'Created'], rows) : h('p', {}, 'No subscriptions yet.')),
  );
};

const attemptsTable = (attempts: Attempt[]) =>
  table(
    ['#', 'Result', 'HTTP', 'Latency', 'Reason', 'At'],
    attempts.map((a) => [a.attemptNumber, status(a.status), a.httpStatus ?? '—', `${a.latency} ms`, a.failureReason ?? '', when(a.at)]),
  );

/** One subscription's delivery log: every attempt on demand, and a retry for failed deliveries. */
export const deliveriesPage = async (api: ParleyClient, main: HTMLElement, id: string, rerender: () => void): Promise<void> => {
  const base = { params: { path: { id } } };
  const { deliveries } = await unwrap<{ deliveries: Delivery[] }>(api.GET('/api/v1/integrations/webhooks/{id}/deliveries', base));
  const error = h('p', { className: 'error', role: 'alert' });
  const rows = deliveries.map((d) => {
    const detail = h('div', {});
    const ids = { params: { path: { id, deliveryId: d.deliveryId } } };
    return [
      d.eventType,
      status(d.status),
      d.httpStatus ?? '—',
      h('button', { type: 'button', 'data-attempts': d.deliveryId, onclick: async () => {
        const { delivery } = await unwrap<{ delivery: Delivery }>(api.GET('/api/v1/integrations/webhooks/{id}/deliveries/{deliveryId}', ids));
        detail.replaceChildren(attemptsTable(delivery.attempts ?? []));
      } }, `${d.attemptNumber} attempt${d.attemptNumber === 1 ? '' : 's'}`),
      d.failureReason ?? '',
      when(d.createdAt),
      d.status === 'failed'
        ? h('button', { type: 'button', 'data-retry': d.deliveryId, onclick: async () => {
            try {
              await unwrap(api.POST('/api/v1/integrations/webhooks/{id}/retry/{deliveryId}', ids));
              rerender();
            } catch (err) {
              error.textContent = (err as Error).message;
            }
          } }, 'Retry')
        : null,
      detail,
    ];
  });
  main.replaceChildren(
    h('h1', {}, 'Delivery log'),
    h('p', {}, h('a', { href: '#/webhooks' }, '← Webhooks')),
    error,
    h('section', {}, deliveries.length ? table(['Event', 'Status', 'HTTP', 'Attempts', 'Reason', 'Created', '', ''], rows) : h('p', {}, 'No deliveries yet.')),
  );
};
