import type { ParleyEvent } from './api';
import { empty, errorLine, h, when } from './dom';
import { unwrap } from './session';
import type { ParleyClient } from '../client/src/client';
import { ParleyApiError } from '../client/src/errors';
import { ParleyRealtimeError } from '../client/src/realtime';

/** The feed keeps this many events on the page; older ones leave at the bottom (the events log keeps 30 days). */
const FEED_LIMIT = 200;
/** The events the page opens with, from the log, before the live ones. */
const OPENING = 50;

/** Fields that name an entity for a person, in the order they are preferred. */
const NAMING = ['name', 'title', 'subject', 'email', 'phone', 'url', 'text', 'content'] as const;

const short = (text: string, max = 80) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** What an entity of an event's data is called: its name (or title, email…), else its id. */
const nameOf = (entity: unknown): string | undefined => {
  if (typeof entity !== 'object' || entity === null) return typeof entity === 'string' ? entity : undefined;
  const fields = entity as Record<string, unknown>;
  const named = NAMING.map((k) => fields[k]).find((v) => typeof v === 'string' && v.trim() !== '');
  return (named as string | undefined) ?? (typeof fields._id === 'string' ? fields._id : undefined);
};

/** One line about an event: its entities by name (`tag “VIP”`), and on an update the fields it changed. */
const summary = (e: ParleyEvent): string => {
  const entities = Object.entries(e.data)
    .map(([kind, entity]) => [kind, nameOf(entity)] as const)
    .filter((pair): pair is readonly [string, string] => pair[1] !== undefined)
    .map(([kind, name]) => `${kind} “${short(name)}”`);
  const changed = e.changes ? Object.keys(e.changes) : [];
  return [entities.join(', ') || '—', changed.length ? `changed: ${changed.join(', ')}` : ''].filter(Boolean).join('; ');
};

/** Why the feed stopped, in words: the subscription retries a dropped socket itself, so only a refusal ends it. */
const stoppedBecause = (err: unknown): string =>
  err instanceof ParleyApiError && err.status === 401
    ? 'Your token no longer works (revoked or expired). Sign out, then sign in with another.'
    : err instanceof ParleyRealtimeError && err.code === 'FORBIDDEN'
      ? 'Your token may read none of the events. Sign in with a token that has a read scope.'
      : `${(err as Error).message}. Reload the page to follow the events again.`;

const item = (e: ParleyEvent) =>
  h(
    'li',
    { className: 'event', 'data-event-id': e.eventId },
    h('code', { className: 'event-type' }, e.eventType),
    h('time', { dateTime: e.occurredAt, className: 'muted' }, when(e.occurredAt)),
    h('span', { className: 'event-summary' }, summary(e)),
  );

/**
 * Events: the workspace's events as they happen, newest on top. The page opens with the latest of the log,
 * then follows the realtime socket from the newest of them (`since`), so nothing between the two is missed.
 * The typed client's subscription survives a dropped socket: it takes a new ticket and resumes after the
 * newest event it saw. An event can arrive out of id order (writers in the same second), so each goes where
 * its id places it, and one already shown is not shown twice.
 */
export const eventsPage = async (api: ParleyClient, main: HTMLElement, signal: AbortSignal): Promise<void> => {
  const { events } = await unwrap<{ events: ParleyEvent[] }>(api.GET('/api/v1/events', { params: { query: { limit: OPENING } } }));
  const feed = h('ol', { className: 'feed', id: 'event-feed', 'aria-label': 'Events, newest first' }, ...events.map(item));
  const none = empty('No events in the last 30 days yet. Each change in the workspace appears here as it happens.');
  none.hidden = events.length > 0;
  const state = h('p', { className: 'muted', role: 'status' }, 'Live: new events appear at the top as they happen.');
  const error = errorLine();
  const shown = new Set(events.map((e) => e.eventId));

  const add = (e: ParleyEvent) => {
    if (shown.has(e.eventId)) return;
    shown.add(e.eventId);
    const later = Array.from(feed.children).find((li) => (li as HTMLElement).dataset.eventId! < e.eventId);
    feed.insertBefore(item(e), later ?? null);
    none.hidden = true;
    for (
      let oldest = feed.lastElementChild as HTMLElement;
      feed.children.length > FEED_LIMIT;
      oldest = feed.lastElementChild as HTMLElement
    ) {
      shown.delete(oldest.dataset.eventId!);
      oldest.remove();
    }
  };

  main.replaceChildren(h('h1', {}, 'Events'), h('section', {}, state, error, none, feed));
  void (async () => {
    try {
      for await (const e of api.realtime.subscribe({ events: ['*'], since: events[0]?.eventId, signal })) add(e);
    } catch (err) {
      if (signal.aborted) return;
      state.textContent = 'Stopped: new events no longer appear here.';
      error.textContent = stoppedBecause(err);
    }
  })();
};
