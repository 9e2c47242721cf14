/// <reference lib="dom" />
import { actionButton, errorLine, facts, h, onSubmit, showOnce, when } from './dom';
import { deliveryLog } from './deliveries';
import { unwrap } from './session';
import { eventChoices, eventsField, health, HOOKS, whyOff, type Subscription } from './subscription';
import type { ParleyClient } from '../../packages/client/src/client';
import type { endpointHealth } from '../../shared/domain/webhooks/health';

type Health = ReturnType<typeof endpointHealth>;

/** How the latest deliveries ended: the success rate counts finished ones (a retrying one is not yet). */
const successRate = ({ recent }: Health): string => {
  const finished = recent.succeeded + recent.failed;
  const rate =
    recent.successRate === null ? 'no finished delivery yet' : `${Math.round(recent.successRate * 100)}% of ${finished} finished`;
  return `${rate} (latest ${recent.deliveries}${recent.inProgress ? `, ${recent.inProgress} in progress` : ''})`;
};

const OVERLAPS: [number, string][] = [
  [3600, '1 hour'],
  [86_400, '24 hours'],
  [604_800, '7 days'],
];

/** Local `datetime-local` input → ISO time. */
const iso = (local: string) => new Date(local).toISOString();

/**
 * One endpoint: its health, send a test event, disable or enable, rotate its secret (the old one stays valid
 * for the overlap), recover failed deliveries since a time, edit, delete, and its delivery log.
 */
export const endpointPage = async (api: ParleyClient, main: HTMLElement, id: string): Promise<void> => {
  const path = { params: { path: { id } } };
  const [{ subscription: s }, { health: state }, choices] = await Promise.all([
    unwrap<{ subscription: Subscription }>(api.GET(`${HOOKS}/{id}`, path)),
    unwrap<{ health: Health }>(api.GET(`${HOOKS}/{id}/health`, path)),
    eventChoices(api),
  ]);
  const rerender = () => endpointPage(api, main, id);
  const log = deliveryLog(api, id, choices.filter((c) => !c.includes('*')).concat('webhook.ping'));
  const error = errorLine();
  const shown = h('div', { id: 'shown-secret' });

  const test = actionButton('Send test event', error, async () => {
    await unwrap(api.POST(`${HOOKS}/{id}/test`, path));
    await log.reload();
  });
  const toggle = actionButton(s.active ? 'Disable' : 'Enable', error, async () => {
    await unwrap(api.PATCH(`${HOOKS}/{id}`, { ...path, body: { active: !s.active } }));
    await rerender();
  });
  const remove = actionButton(
    'Delete',
    error,
    async () => {
      if (!confirm(`Delete the endpoint ${s.url}? Its deliveries stop at once.`)) return;
      await unwrap(api.DELETE(`${HOOKS}/{id}`, path));
      location.hash = '#/webhooks';
    },
    { className: 'danger' },
  );

  const overlap = h(
    'select',
    { name: 'overlapSeconds' },
    ...OVERLAPS.map(([v, label]) => h('option', { value: String(v), selected: v === 86_400 }, label)),
  );
  const rotate = h(
    'form',
    {
      onsubmit: onSubmit(error, async () => {
        const { subscription } = await unwrap<{ subscription: { secret: string } }>(
          api.POST(`${HOOKS}/{id}/rotate-secret`, { ...path, body: { overlapSeconds: Number(overlap.value) } }),
        );
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
    h('button', { type: 'submit' }, 'Rotate secret'),
  );

  const since = h('input', { type: 'datetime-local', name: 'since', required: true });
  const until = h('input', { type: 'datetime-local', name: 'until' });
  const recovered = h('p', { role: 'status', id: 'recovered' });
  const recover = h(
    'form',
    {
      onsubmit: onSubmit(error, async () => {
        const { recovery } = await unwrap<{ recovery: { deliveries: number } }>(
          api.POST(`${HOOKS}/{id}/recover`, {
            ...path,
            body: { since: iso(since.value), ...(until.value ? { until: iso(until.value) } : {}) },
          }),
        );
        recovered.textContent = `${recovery.deliveries} failed ${recovery.deliveries === 1 ? 'delivery' : 'deliveries'} sent again.`;
        await log.reload();
      }),
    },
    h('p', {}, 'Sends every failed delivery of the range once more (each at most once, however often you ask).'),
    h('label', {}, 'Since ', since),
    h('label', {}, 'Until (optional, default now) ', until),
    h('button', { type: 'submit' }, 'Recover failed deliveries'),
    recovered,
  );

  const url = h('input', { type: 'url', name: 'url', required: true, value: s.url });
  const events = eventsField(choices, s.events);
  const edit = h(
    'form',
    {
      onsubmit: onSubmit(error, async () => {
        await unwrap(api.PATCH(`${HOOKS}/{id}`, { ...path, body: { url: url.value, events: events.read() } }));
        await rerender();
      }),
    },
    h('label', {}, 'Endpoint URL ', url),
    events.field,
    h('button', { type: 'submit' }, 'Save'),
  );

  main.replaceChildren(
    h('p', {}, h('a', { href: '#/webhooks' }, '← Webhooks')),
    h('h1', { className: 'wrap' }, s.url),
    error,
    shown,
    h(
      'section',
      { id: 'health' },
      h('h2', {}, 'Health'),
      facts([
        ['State', health(s)],
        ['Success rate', successRate(state)],
        ['Consecutive failures', `${state.consecutiveFailures} (deactivated at ${state.deactivateAfter})`],
        ...(s.active ? [] : ([['Deactivated', `${when(s.deactivatedAt)}: ${whyOff(s)}`]] as [string, string][])),
        ['Events', s.events.join(', ')],
      ]),
      h('div', { className: 'actions' }, test, toggle, remove),
    ),
    log.el,
    h('section', {}, h('h2', {}, 'Recover'), recover),
    h('section', {}, h('h2', {}, 'Signing secret'), rotate),
    h('section', {}, h('h2', {}, 'Edit'), edit),
  );
  await log.reload();
};
