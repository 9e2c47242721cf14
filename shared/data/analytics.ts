import type { Tenant } from '../domain/auth/tenant';
import { bucketOf, type Histogram } from '../domain/analytics/histogram';
import { SKETCHES, type Sketch, type Tally } from '../domain/analytics/measures';
import { bump } from './counters';
import { tenantPk } from './keys';
import { collect, queryAll } from './query';
import { createItem, type Write } from './transact';
import { K } from './registry/registry';

/**
 * Daily aggregates, written by the analytics consumer (and the webhook worker for attempts):
 * - workspace day ... pk=<tenant>#ANDAY     sk=<YYYY-MM-DD>             counters + sketch buckets
 * - agent day ....... pk=<tenant>#ANAGENT   sk=<YYYY-MM-DD>#<assignee>  same, per assignee (`-`: unassigned)
 * - counted event ... pk=<tenant>#ANEVT#<eventId>                       (TTL) in the counting transaction
 * - first reply ..... pk=<tenant>#ANFR#<conversationId>                 in the transaction that counts it
 * Counters are plain attributes; a sketch bucket is the attribute `<sketch>:<bucket>`. A report reads
 * one Query per partition over the date range: O(days) items (× active agents for the agents report).
 */
const dayPk = (tenant: Tenant) => tenantPk(tenant, K.ANDAY);
const agentPk = (tenant: Tenant) => tenantPk(tenant, K.ANAGENT);
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
export const addToDay = (tenant: Tenant, date: string, ...tallies: Tally[]): Write[] => add({ pk: dayPk(tenant), sk: date }, tallies);

export const addToAgentDay = (tenant: Tenant, date: string, assigneeId: string | null, t: Tally): Write[] =>
  add({ pk: agentPk(tenant), sk: `${date}#${assigneeId ?? UNASSIGNED}` }, [t]);

/** The dedupe item of a counted event: its transaction fails (with `onFail`) when the event was counted before. */
export const countedEvent = (tenant: Tenant, eventId: string, now: Date, onFail: () => Error): Write =>
  createItem(
    {
      pk: tenantPk(tenant, K.ANEVT, eventId),
      sk: K.ANEVT,
      type: 'ANALYTICS_EVENT',
      ttl: Math.floor(now.getTime() / 1000) + COUNTED_TTL_SECONDS,
    },
    onFail,
  );

/** The marker of a conversation's first reply: its transaction fails (with `onFail`) for every later reply. */
export const firstReply = (tenant: Tenant, conversationId: string, onFail: () => Error): Write =>
  createItem({ pk: tenantPk(tenant, K.ANFR, conversationId), sk: K.ANFR, type: 'ANALYTICS_FIRST_REPLY' }, onFail);

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
  (await collect(queryAll({ pk: dayPk(tenant), skBetween: [from, to] }))).map((item) => ({
    date: item.sk as string,
    aggregate: aggregateOf(item),
  }));

/** Every agent's day aggregates in the range: one Query on a key range. */
export const readAgentDays = async (tenant: Tenant, from: string, to: string) =>
  (await collect(queryAll({ pk: agentPk(tenant), skBetween: [from, `${to}#~`] }))).map((item) => {
    const [date, agent] = (item.sk as string).split('#') as [string, string];
    return { date, assigneeId: agent === UNASSIGNED ? null : agent, aggregate: aggregateOf(item) };
  });
