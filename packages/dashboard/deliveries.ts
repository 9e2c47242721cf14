import type { Delivery, DeliveryDetail as Detail } from './api';
import { actionButton, busy, empty, errorLine, facts, h, json, row, status, when } from './dom';
import { unwrap } from './session';
import { inWords } from './words';
import { HOOKS } from './subscription';
import type { ParleyClient } from '../client/src/client';

interface Page {
  deliveries: Delivery[];
  pagination: { total: number; nextCursor: string | null };
}

/** Every status, in words (the API's own enum makes it complete). */
const STATUSES: Record<Delivery['status'], string> = { pending: 'pending', retrying: 'retrying', success: 'success', failed: 'failed' };

const HEADINGS = ['Event', 'Status', 'HTTP', 'Attempts', 'Next attempt', 'Created', ''];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A body as the API logged it (its first 4 KB, never a signature), or why there is none. */
const body = (logged: { body: string; bodyTruncated: boolean } | null, none: string) =>
  logged?.body
    ? h(
        'div',
        {},
        h('pre', { className: 'json' }, logged.body),
        logged.bodyTruncated ? h('span', { className: 'muted' }, 'cut short') : null,
      )
    : h('span', { className: 'muted' }, none);

/** Every attempt, each a labelled card. */
const attemptsView = (d: Detail) =>
  h(
    'div',
    { className: 'attempts' },
    h('h3', {}, 'Attempts'),
    d.attempts?.length
      ? h(
          'ol',
          {},
          ...d.attempts.map((a) =>
            h(
              'li',
              { className: 'attempt', 'data-attempt': a.attemptNumber },
              facts([
                ['Attempt', a.attemptNumber],
                ['Result', status(a.status)],
                ['HTTP status', a.httpStatus ?? 'no answer'],
                ['Latency', `${a.latency} ms`],
                ['Failure', a.failureReason ?? '—'],
                ['At', when(a.at)],
                ['Request headers', json(a.request.headers)],
                ['Request body', body(a.request, 'gone (past its retention)')],
                ['Response body', body(a.response, a.response ? 'empty' : 'no response')],
              ]),
            ),
          ),
        )
      : empty('No attempt yet: it is queued.'),
    facts([['Next attempt', d.nextAttemptAt ? when(d.nextAttemptAt) : 'none: it has ended']]),
  );

/** What the log asks of its page: whether a retry can work now, and to refresh the endpoint once one has settled. */
interface LogHost {
  canRetry(): boolean;
  settled(): Promise<void>;
}

/**
 * One endpoint's delivery log: filters by status and event type, a cursor pager, each delivery opening into
 * its attempts, and Retry for failed ones while the endpoint is active (the row follows the new attempt until
 * it settles, then the page refreshes what it shows of the endpoint).
 */
export const deliveryLog = (api: ParleyClient, id: string, eventTypes: string[], host: LogHost) => {
  const statusFilter = h(
    'select',
    { name: 'status' },
    h('option', { value: '' }, 'Any status'),
    ...Object.entries(STATUSES).map(([v, label]) => h('option', { value: v }, label)),
  );
  const typeFilter = h(
    'select',
    { name: 'eventType' },
    h('option', { value: '' }, 'Any event type'),
    ...eventTypes.map((t) => h('option', { value: t }, t)),
  );
  const log = h('div', {});
  const error = errorLine();
  /** Cursors of the pages before the one shown: the pager's way back. */
  let previous: (string | undefined)[] = [];
  let cursor: string | undefined;

  const one = async (deliveryId: string) =>
    (await unwrap<{ delivery: Detail }>(api.GET(`${HOOKS}/{id}/deliveries/{deliveryId}`, { params: { path: { id, deliveryId } } })))
      .delivery;

  const rowFor = (d: Delivery): HTMLTableRowElement[] => {
    const detail = h('tr', { className: 'detail', hidden: true }, h('td', { colSpan: HEADINGS.length }));
    // A pending delivery's new attempt has no answer yet: the last one's status would be stale.
    const waiting = d.status === 'pending';
    const toggle = h(
      'button',
      { type: 'button', 'aria-expanded': 'false', 'data-attempts': d.deliveryId },
      `${d.attemptNumber} attempt${d.attemptNumber === 1 ? '' : 's'}`,
    );
    toggle.onclick = async () => {
      const open = detail.hidden;
      toggle.setAttribute('aria-expanded', String(open));
      detail.hidden = !open;
      if (!open) return;
      detail.firstElementChild!.replaceChildren(busy());
      detail.firstElementChild!.replaceChildren(attemptsView(await one(d.deliveryId)));
    };
    const main = row(HEADINGS, [
      d.eventType,
      status(d.status),
      waiting ? '…' : (d.httpStatus ?? 'no answer'),
      toggle,
      d.nextAttemptAt ? when(d.nextAttemptAt) : '—',
      when(d.createdAt),
      d.status === 'failed' ? retryControl(d, () => [main, detail]) : null,
    ]);
    main.dataset.delivery = d.deliveryId;
    return [main, detail];
  };

  /** Retry, with its failure said beside it. */
  const retryControl = (d: Delivery, rows: () => HTMLTableRowElement[]) => {
    const said = errorLine();
    const button = actionButton(
      'Retry',
      said,
      async () => {
        const [shown, detail] = rows();
        await retry(d, shown!, detail!).catch(async (err: unknown) => {
          await host.settled();
          throw new Error(inWords(err, 'Not retried', !host.canRetry()));
        });
        await host.settled();
      },
      { 'data-retry': d.deliveryId, hidden: !host.canRetry() },
    );
    return h('div', { className: 'control' }, button, said);
  };

  /** The row is replaced by the delivery as it now is, again until its new attempt has an answer. */
  const retry = async (d: Delivery, shown: HTMLTableRowElement, detail: HTMLTableRowElement) => {
    let now = (
      await unwrap<{ delivery: Delivery }>(
        api.POST(`${HOOKS}/{id}/retry/{deliveryId}`, { params: { path: { id, deliveryId: d.deliveryId } } }),
      )
    ).delivery;
    for (let tries = 0; ; tries++) {
      const [next, nextDetail] = rowFor(now);
      shown.replaceWith(next!);
      detail.replaceWith(nextDetail!);
      [shown, detail] = [next!, nextDetail!];
      if (now.status !== 'pending' || tries >= 30) return;
      await sleep(1000);
      now = await one(d.deliveryId);
    }
  };

  /** The latest load: an earlier one answering after it (filters changed in quick succession) is dropped. */
  let latest = 0;
  const load = async () => {
    const mine = ++latest;
    log.replaceChildren(busy());
    const query = {
      limit: 20,
      ...(cursor ? { cursor } : {}),
      ...(statusFilter.value ? { status: statusFilter.value } : {}),
      ...(typeFilter.value ? { eventType: typeFilter.value } : {}),
    };
    const { deliveries, pagination } = await unwrap<Page>(
      api.GET(`${HOOKS}/{id}/deliveries`, { params: { path: { id }, query: query as never } }),
    );
    if (mine !== latest) return;
    const older = h(
      'button',
      { type: 'button', disabled: !pagination.nextCursor, onclick: () => page(pagination.nextCursor ?? undefined, [...previous, cursor]) },
      'Older →',
    );
    const newer = h(
      'button',
      { type: 'button', disabled: previous.length === 0, onclick: () => page(previous.at(-1), previous.slice(0, -1)) },
      '← Newer',
    );
    log.replaceChildren(
      deliveries.length
        ? h('table', {}, h('thead', {}, h('tr', {}, ...HEADINGS.map((t) => h('th', {}, t)))), h('tbody', {}, ...deliveries.flatMap(rowFor)))
        : empty(
            statusFilter.value || typeFilter.value
              ? 'No delivery matches these filters.'
              : 'No deliveries yet. Send a test event to see one.',
          ),
      h('nav', { className: 'pager', 'aria-label': 'Delivery log pages' }, newer, h('span', {}, `${pagination.total} in all`), older),
    );
  };

  const page = async (to: string | undefined, before: (string | undefined)[]) => {
    cursor = to;
    previous = before;
    await load().catch((err: Error) => (error.textContent = err.message));
  };

  const filtered = () => page(undefined, []);
  statusFilter.onchange = filtered;
  typeFilter.onchange = filtered;
  const el = h(
    'section',
    { id: 'delivery-log' },
    h('h2', {}, 'Delivery log'),
    h('div', { className: 'filters' }, h('label', {}, 'Status ', statusFilter), h('label', {}, 'Event type ', typeFilter)),
    error,
    log,
  );
  /** The page shown now, as it now is (an open delivery closes). */
  const refresh = () => load().catch((err: Error) => (error.textContent = err.message));
  /** Retry is offered only while it can work: hidden on a deactivated endpoint (a failure said beside it stays). */
  const retryable = (on: boolean) => {
    for (const button of Array.from(el.querySelectorAll<HTMLButtonElement>('button[data-retry]'))) button.hidden = !on;
  };
  return { el, reload: filtered, refresh, retryable };
};
