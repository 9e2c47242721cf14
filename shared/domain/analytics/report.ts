import * as z from 'zod';
import { CalendarDate } from '../dates';
import { addDays, daysBetween, periodsOf, type Interval } from './calendar';
import { merge, summary, type Histogram } from './histogram';
import { SKETCHES, type Sketch } from './measures';
import type { StageKind } from '../crm/pipeline';
import { built } from '../built';

/** A report covers at most this many days (a 400-item Query at most: O(days), never a scan). */
const MAX_RANGE_DAYS = 366;
const DEFAULT_RANGE_DAYS = 30;

export const ReportQuery = /* @__PURE__ */ built(() =>
  z.strictObject({
    from: CalendarDate.optional(),
    to: CalendarDate.optional(),
    interval: z.enum(['day', 'week']).default('day'),
  }),
);
export type ReportQuery = z.output<typeof ReportQuery>;

export interface Range {
  from: string;
  to: string;
  interval: Interval;
  timezone: string;
}

/** The report's range: `to` defaults to today and `from` to 29 days before `to`, in the workspace's timezone. */
export const rangeOf = (q: ReportQuery, today: string, timezone: string): Range | { error: { path: string; message: string } } => {
  const to = q.to ?? today;
  const from = q.from ?? addDays(to, -(DEFAULT_RANGE_DAYS - 1));
  if (from > to) return { error: { path: 'from', message: 'Must not be after to' } };
  if (daysBetween(from, to) >= MAX_RANGE_DAYS) return { error: { path: 'to', message: `A report covers at most ${MAX_RANGE_DAYS} days` } };
  return { from, to, interval: q.interval, timezone };
};

export interface Aggregate {
  counts: Record<string, number>;
  sketches: Record<Sketch, Histogram>;
}

const emptyAggregate = (): Aggregate => ({
  counts: {},
  sketches: Object.fromEntries(SKETCHES.map((s) => [s, new Map()])) as Record<Sketch, Histogram>,
});

export const combine = (parts: readonly Aggregate[]): Aggregate =>
  parts.reduce((acc, part) => {
    for (const [k, v] of Object.entries(part.counts)) acc.counts[k] = (acc.counts[k] ?? 0) + v;
    for (const s of SKETCHES) merge(acc.sketches[s], part.sketches[s]);
    return acc;
  }, emptyAggregate());

/** Each period of the range with the combined aggregate of its days (days without activity count as zero). */
export const series = (range: Range, days: readonly { date: string; aggregate: Aggregate }[]) =>
  periodsOf(range.from, range.to, range.interval).map((p) => ({
    ...p,
    aggregate: combine(days.filter((d) => d.date >= p.start && d.date <= p.end).map((d) => d.aggregate)),
  }));

const n = (a: Aggregate, key: string) => a.counts[key] ?? 0;
const ratio = (part: number, whole: number) => (whole === 0 ? null : Math.round((part / whole) * 10_000) / 10_000);

const seconds = (a: Aggregate, s: Sketch) => summary(a.sketches[s]);

/** Won value per currency, in minor units. */
const wonValue = (a: Aggregate): Record<string, number> =>
  Object.fromEntries(
    Object.entries(a.counts)
      .filter(([k]) => k.startsWith('wonValue:'))
      .map(([k, v]) => [k.slice('wonValue:'.length), v]),
  );

export const conversationFigures = (a: Aggregate) => ({
  opened: n(a, 'conversationsOpened'),
  closed: n(a, 'conversationsClosed'),
  incoming: n(a, 'messagesIn'),
  outgoing: n(a, 'messagesOut'),
  aiOutgoing: n(a, 'aiMessagesOut'),
  firstResponseSeconds: seconds(a, 'firstResponse'),
  resolutionSeconds: seconds(a, 'resolution'),
});

export const leadFigures = (a: Aggregate) => {
  const won = n(a, 'leadsWon');
  const lost = n(a, 'leadsLost');
  return { created: n(a, 'leadsCreated'), won, lost, wonValue: wonValue(a), winRate: ratio(won, won + lost) };
};

export const webhookFigures = (a: Aggregate) => {
  const succeeded = n(a, 'webhookDelivered');
  const failed = n(a, 'webhookFailed');
  return {
    deliveries: succeeded + failed,
    succeeded,
    failed,
    successRate: ratio(succeeded, succeeded + failed),
    attempts: n(a, 'webhookAttempts'),
    latencyMs: summary(a.sketches.webhookLatencyMs),
  };
};

export const agentFigures = (a: Aggregate) => ({
  conversationsAssigned: n(a, 'conversationsAssigned'),
  conversationsClosed: n(a, 'conversationsClosed'),
  messagesSent: n(a, 'messagesOut'),
  firstResponseSeconds: seconds(a, 'firstResponse'),
  resolutionSeconds: seconds(a, 'resolution'),
});

const median90 = (s: { median: number | null; p90: number | null }) => ({ median: s.median, p90: s.p90 });

/** docs/guide/analytics.md's `data.overview`. */
export const overviewOf = (a: Aggregate) => {
  const c = conversationFigures(a);
  const l = leadFigures(a);
  const w = webhookFigures(a);
  return {
    conversations: { opened: c.opened, closed: c.closed },
    messages: { incoming: c.incoming, outgoing: c.outgoing },
    firstResponseSeconds: median90(c.firstResponseSeconds),
    resolutionSeconds: median90(c.resolutionSeconds),
    leads: { created: l.created, won: l.won, lost: l.lost, wonValue: l.wonValue },
    webhooks: { deliveries: w.deliveries, succeeded: w.succeeded, successRate: w.successRate },
  };
};

/** Stage entries of the range by stage, from the `stage:<pipeline>:<stage>` counters. */
export const stageEntries = (a: Aggregate): { pipelineId: string; stageId: string; entered: number }[] =>
  Object.entries(a.counts)
    .filter(([k]) => k.startsWith('stage:'))
    .map(([k, entered]) => {
      const [, pipelineId, stageId] = k.split(':') as [string, string, string];
      return { pipelineId, stageId, entered };
    });

/** A stage as the funnel shows it; a deleted pipeline's stages have no name and kind `unknown`. */
export interface StageInfo {
  _id: string;
  name: string | null;
  kind: StageKind | 'unknown';
}

/**
 * A pipeline's funnel for the range: each stage in pipeline order with the leads that entered it, and for
 * open stages the ratio of entries into the next non-lost stage to entries into this one. A ratio of
 * period entries, not a cohort: leads entering a stage late in the range may move on after it.
 */
export const funnel = (stages: readonly StageInfo[], entered: ReadonlyMap<string, number>) =>
  stages.map((s, i) => {
    const next = stages.slice(i + 1).find((t) => t.kind !== 'lost');
    const count = entered.get(s._id) ?? 0;
    return {
      stageId: s._id,
      name: s.name,
      kind: s.kind,
      entered: count,
      conversionToNext: s.kind === 'open' && next ? ratio(entered.get(next._id) ?? 0, count) : null,
    };
  });
