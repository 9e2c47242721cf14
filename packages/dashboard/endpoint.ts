import { actionButton, errorLine, facts, h, onSubmit, showOnce, when } from './dom';
import { deliveryLog } from './deliveries';
import { unwrap } from './session';
import { eventChoices, eventsField, health, HOOKS, whyOff } from './subscription';
import { inWords } from './words';
import type { ParleyClient } from '../client/src/client';
import type { Delivery, EndpointHealth as Health, Subscription } from './api';

/**
 * How the latest deliveries ended: the success rate counts finished ones. One still being retried has not
 * finished, even when it already counts as failing in a row.
 */
const successRate = ({ recent }: Health): string => {
  if (recent.deliveries === 0) return 'no deliveries yet';
  const finished = recent.succeeded + recent.failed;
  const open = recent.inProgress ? `: ${recent.inProgress} still being delivered or retried` : '';
  const rate = finished === 0 ? 'none finished yet' : `${Math.round((recent.successRate ?? 0) * 100)}% of ${finished} finished`;
  return `${rate} (latest ${recent.deliveries}${open})`;
};

const OVERLAPS: [number, string][] = [
  [3600, '1 hour'],
  [86_400, '24 hours'],
  [604_800, '7 days'],
];

/** How often the page asks for the endpoint's state while it follows a delivery, and while it is simply open. */
const FOLLOW_MS = 1000;
const IDLE_MS = 10_000;
/** A delivery whose next attempt is further off than this has left its quick attempts: the page stops following it. */
const FOLLOW_HORIZON_MS = 30_000;

/** Local `datetime-local` input → ISO time. */
const iso = (local: string) => new Date(local).toISOString();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A control with the line that says its outcome (or its failure, in words) right beside it. */
const control = (...children: Node[]) => h('div', { className: 'control' }, ...children);

/** What a sent delivery has come to, in words. */
const outcome = (d: Delivery, s: Subscription): string => {
  if (d.status === 'success') return `Delivered: the endpoint answered ${d.httpStatus}.`;
  const answer = d.httpStatus ? `the endpoint answered ${d.httpStatus}` : `no answer (${d.failureReason ?? 'unreachable'})`;
  if (d.status === 'failed') return `Failed: ${answer}${s.active ? '.' : ', so the endpoint is now deactivated.'}`;
  if (d.status === 'retrying') return `Not delivered yet: ${answer}; next attempt ${when(d.nextAttemptAt)}.`;
  return 'Sent: waiting for the endpoint to answer…';
};

/**
 * One endpoint: its health, send a test event, disable or reactivate, rotate its secret (the old one stays
 * valid for the overlap), recover failed deliveries since a time, edit, delete, and its delivery log. The page
 * follows what it starts (a test event, a retry) until the delivery settles, refreshes the endpoint's state
 * while it is open, and offers only the actions that can work in that state.
 */
export const endpointPage = async (api: ParleyClient, main: HTMLElement, id: string): Promise<void> => {
  const path = { params: { path: { id } } };
  const fetchState = () =>
    Promise.all([
      unwrap<{ subscription: Subscription }>(api.GET(`${HOOKS}/{id}`, path)).then((r) => r.subscription),
      unwrap<{ health: Health }>(api.GET(`${HOOKS}/{id}/health`, path)).then((r) => r.health),
    ]);
  const [[first, firstHealth], choices] = await Promise.all([fetchState(), eventChoices(api)]);
  let s = first;
  let state = firstHealth;
  const rerender = () => endpointPage(api, main, id);
  const log = deliveryLog(api, id, choices.filter((c) => !c.includes('*')).concat('webhook.ping'), {
    canRetry: () => s.active,
    // The row follows its retry itself: only the endpoint's state is refreshed, so an opened row stays open.
    settled: () => refresh(false),
  });
  const shown = h('div', { id: 'shown-secret' });

  const summary = h('div', {});
  const title = h('h1', { className: 'wrap' }, s.url);
  const sent = h('p', { role: 'status', id: 'sent' });
  const testError = errorLine();
  const test = actionButton('Send test event', testError, async () => {
    sent.textContent = '';
    const { delivery } = await unwrap<{ delivery: Delivery }>(api.POST(`${HOOKS}/{id}/test`, path)).catch(async (err: unknown) => {
      await refresh();
      throw new Error(inWords(err, 'Not sent', !s.active));
    });
    sent.textContent = outcome(delivery, s);
    await log.reload();
    void follow(delivery.deliveryId).catch((err: unknown) => (sent.textContent = inWords(err, 'Stopped following the delivery')));
  });
  const toggleError = errorLine();
  const toggle = actionButton('', toggleError, async () => {
    const active = !s.active;
    await unwrap(api.PATCH(`${HOOKS}/{id}`, { ...path, body: { active } })).catch((err: unknown) => {
      throw new Error(inWords(err, active ? 'Not reactivated' : 'Not disabled'));
    });
    // What was said about the state it leaves no longer holds.
    for (const said of [sent, testError, recoverError]) said.textContent = '';
    await refresh();
  });
  const removeError = errorLine();
  const remove = actionButton(
    'Delete',
    removeError,
    async () => {
      if (!confirm(`Delete the endpoint ${s.url}? Its deliveries stop at once.`)) return;
      await unwrap(api.DELETE(`${HOOKS}/{id}`, path)).catch((err: unknown) => {
        throw new Error(inWords(err, 'Not deleted'));
      });
      location.hash = '#/webhooks';
    },
    { className: 'danger' },
  );

  const overlap = h(
    'select',
    { name: 'overlapSeconds' },
    ...OVERLAPS.map(([v, label]) => h('option', { value: String(v), selected: v === 86_400 }, label)),
  );
  const rotateError = errorLine();
  const rotate = h(
    'form',
    {
      onsubmit: onSubmit(rotateError, async () => {
        const { subscription } = await unwrap<{ subscription: { secret: string } }>(
          api.POST(`${HOOKS}/{id}/rotate-secret`, { ...path, body: { overlapSeconds: Number(overlap.value) } }),
        ).catch((err: unknown) => {
          throw new Error(inWords(err, 'Not rotated'));
        });
        await rerender();
        showOnce(main.querySelector('#shown-secret')!, 'The new signing secret', subscription.secret, 'new-secret-value');
      }),
    },
    h(
      'p',
      {},
      'Deliveries are signed with both the old and the new secret until the overlap ends, so receivers can switch without missing one.',
    ),
    s.previousSecretsExpireAt && Date.parse(s.previousSecretsExpireAt) > Date.now()
      ? h('p', { id: 'overlap' }, `The replaced secret also signs until ${when(s.previousSecretsExpireAt)}.`)
      : null,
    h('label', {}, 'Old secret stays valid for ', overlap),
    control(h('button', { type: 'submit' }, 'Rotate secret'), rotateError),
  );

  const since = h('input', { type: 'datetime-local', name: 'since', required: true });
  const until = h('input', { type: 'datetime-local', name: 'until' });
  const recovered = h('p', { role: 'status', id: 'recovered' });
  const recoverError = errorLine();
  const recoverOff = h('p', { className: 'muted', id: 'recover-off' }, 'Reactivate the endpoint to send its failed deliveries again.');
  const recoverButton = h('button', { type: 'submit' }, 'Recover failed deliveries');
  const recover = h(
    'form',
    {
      onsubmit: onSubmit(recoverError, async () => {
        const { recovery } = await unwrap<{ recovery: { deliveries: number } }>(
          api.POST(`${HOOKS}/{id}/recover`, {
            ...path,
            body: { since: iso(since.value), ...(until.value ? { until: iso(until.value) } : {}) },
          }),
        ).catch(async (err: unknown) => {
          await refresh();
          throw new Error(inWords(err, 'Not recovered', !s.active));
        });
        recovered.textContent = `${recovery.deliveries} failed ${recovery.deliveries === 1 ? 'delivery' : 'deliveries'} sent again.`;
        await log.reload();
      }),
    },
    h('p', {}, 'Sends every failed delivery of the range once more (each at most once, however often you ask).'),
    h('label', {}, 'Since ', since),
    h('label', {}, 'Until (optional, default now) ', until),
    recoverOff,
    control(recoverButton, recoverError),
    recovered,
  );

  const url = h('input', { type: 'url', name: 'url', required: true, value: s.url });
  const events = eventsField(choices, s.events);
  const editError = errorLine();
  const edit = h(
    'form',
    {
      onsubmit: onSubmit(editError, async () => {
        await unwrap(api.PATCH(`${HOOKS}/{id}`, { ...path, body: { url: url.value, events: events.read() } })).catch((err: unknown) => {
          throw new Error(inWords(err, 'Not saved'));
        });
        await rerender();
      }),
    },
    h('label', {}, 'Endpoint URL ', url),
    events.field,
    control(h('button', { type: 'submit' }, 'Save'), editError),
  );

  /** Shows `s` and `state`, and offers only what can work in it: nothing is sent to an inactive endpoint. */
  const show = () => {
    title.textContent = s.url;
    summary.replaceChildren(
      facts([
        ['State', health(s, state.recent.failed)],
        ['Success rate', successRate(state)],
        ...(s.active
          ? ([['Failures in a row', `${state.consecutiveFailures} (the endpoint is deactivated after ${state.deactivateAfter})`]] as [
              string,
              string,
            ][])
          : ([['Deactivated', `${when(s.deactivatedAt)}: ${whyOff(s)}`]] as [string, string][])),
        ['Events', s.events.join(', ')],
      ]),
    );
    toggle.textContent = s.active ? 'Disable' : s.deactivationReason === 'manual' ? 'Enable' : 'Reactivate';
    test.hidden = !s.active;
    recoverButton.disabled = !s.active;
    recoverOff.hidden = s.active;
    log.retryable(s.active);
  };

  /** The endpoint as the API has it now; the log too (`withLog`) when its deliveries changed. */
  const refresh = async (withLog = true) => {
    const before = JSON.stringify(state.recent);
    [s, state] = await fetchState();
    show();
    if (withLog && JSON.stringify(state.recent) !== before) await log.refresh();
  };

  /** Refreshes until the delivery the page sent settles: delivered, failed, or past its quick attempts. */
  const follow = async (deliveryId: string) => {
    for (;;) {
      await sleep(FOLLOW_MS);
      if (!summary.isConnected) return;
      const { delivery } = await unwrap<{ delivery: Delivery }>(
        api.GET(`${HOOKS}/{id}/deliveries/{deliveryId}`, { params: { path: { id, deliveryId } } }),
      );
      await refresh();
      sent.textContent = outcome(delivery, s);
      const next = delivery.nextAttemptAt ? Date.parse(delivery.nextAttemptAt) - Date.now() : 0;
      if (delivery.status === 'success' || delivery.status === 'failed' || next > FOLLOW_HORIZON_MS) return;
    }
  };

  /** While the page is open, it keeps up with changes it did not start (deliveries of real events). */
  const keepUp = async () => {
    while (summary.isConnected) {
      await sleep(IDLE_MS);
      if (summary.isConnected && document.visibilityState === 'visible') await refresh().catch(() => {});
    }
  };

  show();
  main.replaceChildren(
    h('p', {}, h('a', { href: '#/webhooks' }, '← Webhooks')),
    title,
    shown,
    h(
      'section',
      { id: 'health' },
      h('h2', {}, 'Health'),
      summary,
      h('div', { className: 'actions' }, control(test, testError), control(toggle, toggleError), control(remove, removeError)),
      sent,
    ),
    log.el,
    h('section', { id: 'recover' }, h('h2', {}, 'Recover'), recover),
    h('section', {}, h('h2', {}, 'Signing secret'), rotate),
    h('section', {}, h('h2', {}, 'Edit'), edit),
  );
  await log.reload();
  void keepUp();
};
