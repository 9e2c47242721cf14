import { empty, errorLine, h, onSubmit, showOnce, table, when } from './dom';
import { unwrap } from './session';
import { eventChoices, eventsField, health, HOOKS } from './subscription';
import type { Subscription } from './api';
import type { ParleyClient } from '../client/src/client';

/** Webhooks: the workspace's endpoints with their health, and a form adding one (its signing secret shown once). */
export const endpointsPage = async (api: ParleyClient, main: HTMLElement): Promise<void> => {
  const [{ subscriptions }, choices] = await Promise.all([unwrap<{ subscriptions: Subscription[] }>(api.GET(HOOKS)), eventChoices(api)]);
  const created = h('div', { id: 'created-secret' });
  const error = errorLine();
  const url = h('input', { type: 'url', name: 'url', required: true, placeholder: 'https://example.com/webhooks' });
  const events = eventsField(choices);
  const form = h(
    'form',
    {
      onsubmit: onSubmit(error, async () => {
        const { subscription } = await unwrap<{ subscription: Subscription & { secret: string } }>(
          api.POST(HOOKS, { body: { url: url.value, events: events.read() } }),
        );
        await endpointsPage(api, main);
        showOnce(
          main.querySelector('#created-secret')!,
          `Endpoint ${subscription.url} added: its signing secret`,
          subscription.secret,
          'new-secret-value',
        );
      }),
    },
    h('label', {}, 'Endpoint URL (https) ', url),
    events.field,
    h('button', { type: 'submit' }, 'Add endpoint'),
    error,
  );
  const rows = subscriptions.map((s) => [
    h('a', { href: `#/webhooks/${s._id}` }, s.url),
    s.events.join(', '),
    health(s),
    when(s.createdAt),
  ]);
  main.replaceChildren(
    h('h1', {}, 'Webhooks'),
    created,
    h(
      'section',
      {},
      h('h2', {}, 'Endpoints'),
      subscriptions.length
        ? table(['Endpoint', 'Events', 'Health', 'Created'], rows)
        : empty('No endpoints yet. Add one below to receive events.'),
    ),
    h('section', {}, h('h2', {}, 'Add an endpoint'), form),
  );
};
