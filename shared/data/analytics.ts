import type { Tenant } from '../domain/auth/tenant';
import { bucketOf, type Histogram } from '../domain/analytics/histogram';
import { SKETCHES, type Sketch, type Tally } from '../domain/analytics/measures';
import { bump } from './counters';
import { collect, queryAll } from './query';
import { createItem, type Write } from './transact';
import { analyticsAgentDay, analyticsDay, countedEvent as countedEventItem, firstReply as firstReplyItem } from './registry/analytics';

/** Daily aggregates (keys: registry/analytics.ts), written by the analytics consumer and the webhook worker for attempts. */
const UNASSIGNED = '-';
/** Longer than the outbox keeps an event (a week), so no redelivery outlives its dedupe item. */
const COUNTED_TTL_SECONDS = 8 * 24 * 3600;

const deltas = (tallies: readonly Tally[]): Record<string, number> => {
  const out: Record<string, number> = {};
  const plus = (attr: string, n: number) => {
    out[attr] = (out[attr] ?? 0) + n;
  };
  for (const t of tallies) {
    for (const [counter, n] of Object.entries(t.counts)) plus(counter, n);
    for (const [sketch, value] of Object.entries(t.samples)) plus(`${sketch}:${bucketOf(value)}`, 1);
  }
  return out;
};

const add = (key: { pk: string; sk: string }, tallies: readonly Tally[]): Write[] => {
  const d = deltas(tallies);
  return Object.keys(d).length ? [bump(key, d)] : [];
};

/** What the tallies add to the workspace's day, summed into one update of its aggregate. */
export const addToDay = (tenant: Tenant, date: string, ...tallies: Tally[]): Write[] => add(analyticsDay.key({ tenant, date }), tallies);

export const addToAgentDay = (tenant: Tenant, date: string, assigneeId: string | null, t: Tally): Write[] =>
  add(analyticsAgentDay.key({ tenant, date, assignee: assigneeId ?? UNASSIGNED }), [t]);

/** The dedupe item of a counted event: its transaction fails (with `onFail`) when the event was counted before. */
export const countedEvent = (tenant: Tenant, eventId: string, now: Date, onFail: () => Error): Write =>
  createItem(
    {
      ...countedEventItem.key({ tenant, eventId }),
      type: 'ANALYTICS_EVENT',
      ttl: Math.floor(now.getTime() / 1000) + COUNTED_TTL_SECONDS,
    },
    onFail,
  );

/** The marker of a conversation's first reply: its transaction fails (with `onFail`) for every later reply. */
export const firstReply = (tenant: Tenant, conversationId: string, onFail: () => Error): Write =>
  createItem({ ...firstReplyItem.key({ tenant, conversationId }), type: 'ANALYTICS_FIRST_REPLY' }, onFail);

export interface DayAggregate {
  counts: Record<string, number>;
  sketches: Record<Sketch, Histogram>;
}

const SKETCH_ATTR = new RegExp(`^(${SKETCHES.join('|')}):(\\d+)$`);

const aggregateOf = (item: Record<string, unknown>): DayAggregate => {
  const counts: Record<string, number> = {};
  const sketches = Object.fromEntries(SKETCHES.map((s) => [s, new Map<number, number>()])) as Record<Sketch, Histogram>;
  for (const [attr, value] of Object.entries(item)) {
    if (typeof value !== 'number') continue;
    const m = SKETCH_ATTR.exec(attr);
    if (m) sketches[m[1] as Sketch].set(Number(m[2]), value);
    else counts[attr] = value;
  }
  return { counts, sketches };
};

/** The workspace's day aggregates from `from` to `to` (inclusive): one Query on a key range. */
export const readDays = async (tenant: Tenant, from: string, to: string): Promise<{ date: string; aggregate: DayAggregate }[]> =>
  (await collect(queryAll({ pk: analyticsDay.build('pk', { tenant }), skBetween: [from, to] }))).map((item) => ({
    date: analyticsDay.read('sk', item.sk).date,
    aggregate: aggregateOf(item),
  }));

/** Every agent's day aggregates in the range: one Query on a key range. */
export const readAgentDays = async (tenant: Tenant, from: string, to: string) =>
  (await collect(queryAll({ pk: analyticsAgentDay.build('pk', { tenant }), skBetween: [from, `${to}#~`] }))).map((item) => {
    const { date, assignee } = analyticsAgentDay.read('sk', item.sk);
    return { date, assigneeId: assignee === UNASSIGNED ? null : assignee, aggregate: aggregateOf(item) };
  });
