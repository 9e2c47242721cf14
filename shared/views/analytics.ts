import * as z from 'zod';
import { STAGE_KINDS } from '../domain/crm/pipeline';
import { id } from './common';
import { built } from '../domain/built';

const count = /* @__PURE__ */ built(() => z.number().int().min(0));
/** A share from 0 to 1, null when there was nothing to divide by. */
const rate = /* @__PURE__ */ built(() => z.number().min(0).max(1).nullable());
const date = /* @__PURE__ */ built(() => z.iso.date());

/** The dates a report covers, as resolved in the workspace's timezone. */
export const range = /* @__PURE__ */ built(() =>
  z.strictObject({ from: date, to: date, interval: z.enum(['day', 'week']), timezone: z.string() }).meta({ id: 'ReportRange' }),
);

/** A duration's median and 90th percentile (null when nothing was measured), and how many were measured. */
const durations = /* @__PURE__ */ built(() => z.strictObject({ median: count.nullable(), p90: count.nullable(), count }));
/** Won value per ISO currency code, in minor units. */
const wonValue = /* @__PURE__ */ built(() => z.record(z.string().length(3), count));
/** One day or week of a report's range (`start` and `end` inclusive). */
const period = /* @__PURE__ */ built(() => ({ start: date, end: date }));
/** A report's figures for its whole range, then per period. */
const withSeries = <S extends z.ZodRawShape>(figures: S) =>
  z.strictObject({ ...figures, series: z.array(z.strictObject({ ...period, ...figures })) });

export const overview = /* @__PURE__ */ built(() =>
  z
    .strictObject({
      conversations: z.strictObject({ opened: count, closed: count }),
      messages: z.strictObject({ incoming: count, outgoing: count }),
      firstResponseSeconds: durations.omit({ count: true }),
      resolutionSeconds: durations.omit({ count: true }),
      leads: z.strictObject({ created: count, won: count, lost: count, wonValue }),
      webhooks: z.strictObject({ deliveries: count, succeeded: count, successRate: rate }),
    })
    .meta({ id: 'OverviewReport' }),
);

export const conversationActivity = /* @__PURE__ */ built(() =>
  withSeries({
    opened: count,
    closed: count,
    incoming: count,
    outgoing: count,
    aiOutgoing: count,
    firstResponseSeconds: durations,
    resolutionSeconds: durations,
  }).meta({ id: 'ConversationsReport' }),
);

export const agentActivity = /* @__PURE__ */ built(() =>
  z
    .strictObject({
      /** The conversations' assignee as stored on them; null: unassigned. */
      assigneeId: z.string().nullable(),
      conversationsAssigned: count,
      conversationsClosed: count,
      messagesSent: count,
      firstResponseSeconds: durations,
      resolutionSeconds: durations,
    })
    .meta({ id: 'AgentReport' }),
);

/** A stage of a deleted pipeline keeps its counts, without a name and with kind `unknown`. */
const funnelStage = /* @__PURE__ */ built(() =>
  z.strictObject({
    stageId: id,
    name: z.string().nullable(),
    kind: z.enum([...STAGE_KINDS, 'unknown']),
    entered: count,
    conversionToNext: z.number().min(0).nullable(),
  }),
);

const leadFigures = /* @__PURE__ */ built(() => ({ created: count, won: count, lost: count, wonValue, winRate: rate }));

export const pipelineActivity = /* @__PURE__ */ built(() =>
  withSeries(leadFigures)
    .extend({ pipelines: z.array(z.strictObject({ pipelineId: id, name: z.string().nullable(), stages: z.array(funnelStage) })) })
    .meta({ id: 'PipelineReport' }),
);

const webhookFigures = /* @__PURE__ */ built(() => ({
  deliveries: count,
  succeeded: count,
  failed: count,
  successRate: rate,
  attempts: count,
  latencyMs: durations,
}));

export const webhookActivity = /* @__PURE__ */ built(() => withSeries(webhookFigures).meta({ id: 'WebhooksReport' }));
