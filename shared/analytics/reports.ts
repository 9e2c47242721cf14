import { tenantParts, type Tenant } from '../domain/auth/tenant';
import { ValidationError } from '../domain/errors';
import { localDate } from '../domain/analytics/calendar';
import {
  agentFigures,
  combine,
  conversationFigures,
  funnel,
  leadFigures,
  overviewOf,
  rangeOf,
  series,
  stageEntries,
  webhookFigures,
  type Range,
  type ReportQuery,
} from '../domain/analytics/report';
import { readAgentDays, readDays } from '../data/analytics';
import { getPipeline } from '../data/pipelines';
import { DEFAULT_TIMEZONE, getWorkspace } from '../data/workspaces';

const resolveRange = async (tenant: Tenant, query: ReportQuery, now: Date): Promise<Range> => {
  const timezone = (await getWorkspace(tenantParts(tenant).workspaceId))?.timezone ?? DEFAULT_TIMEZONE;
  const range = rangeOf(query, localDate(now, timezone), timezone);
  if ('error' in range) throw new ValidationError([range.error]);
  return range;
};

/** The range and its days' aggregates: one Query of O(days) items. */
const daysOf = async (tenant: Tenant, query: ReportQuery, now: Date) => {
  const range = await resolveRange(tenant, query, now);
  const days = await readDays(tenant, range.from, range.to);
  return { range, days, total: combine(days.map((d) => d.aggregate)) };
};

export const overviewReport = async (tenant: Tenant, query: ReportQuery, now: Date) => {
  const { range, total } = await daysOf(tenant, query, now);
  return { range, overview: overviewOf(total) };
};

export const conversationsReport = async (tenant: Tenant, query: ReportQuery, now: Date) => {
  const { range, days, total } = await daysOf(tenant, query, now);
  return {
    range,
    conversations: {
      ...conversationFigures(total),
      series: series(range, days).map(({ aggregate, ...p }) => ({ ...p, ...conversationFigures(aggregate) })),
    },
  };
};

export const webhooksReport = async (tenant: Tenant, query: ReportQuery, now: Date) => {
  const { range, days, total } = await daysOf(tenant, query, now);
  return {
    range,
    webhooks: {
      ...webhookFigures(total),
      series: series(range, days).map(({ aggregate, ...p }) => ({ ...p, ...webhookFigures(aggregate) })),
    },
  };
};

export const pipelineReport = async (tenant: Tenant, query: ReportQuery, now: Date) => {
  const { range, days, total } = await daysOf(tenant, query, now);
  const byPipeline = new Map<string, Map<string, number>>();
  for (const e of stageEntries(total)) byPipeline.set(e.pipelineId, (byPipeline.get(e.pipelineId) ?? new Map()).set(e.stageId, e.entered));
  const pipelines = await Promise.all(
    [...byPipeline].map(async ([pipelineId, entered]) => {
      const stored = await getPipeline(tenant, pipelineId);
      // A deleted pipeline's stages keep their counts, without names or order.
      const stages = stored?.pipeline.stages ?? [...entered.keys()].map((_id) => ({ _id, name: null, kind: 'unknown' as const }));
      return { pipelineId, name: stored?.pipeline.name ?? null, stages: funnel(stages, entered) };
    }),
  );
  return {
    range,
    pipeline: {
      ...leadFigures(total),
      pipelines,
      series: series(range, days).map(({ aggregate, ...p }) => ({ ...p, ...leadFigures(aggregate) })),
    },
  };
};

/** Per assignee id as stored on the conversation (null: unassigned), busiest first. */
export const agentsReport = async (tenant: Tenant, query: ReportQuery, now: Date) => {
  const range = await resolveRange(tenant, query, now);
  const byAgent = new Map<string | null, ReturnType<typeof combine>[]>();
  for (const d of await readAgentDays(tenant, range.from, range.to))
    byAgent.set(d.assigneeId, [...(byAgent.get(d.assigneeId) ?? []), d.aggregate]);
  const agents = [...byAgent]
    .map(([assigneeId, parts]) => ({ assigneeId, ...agentFigures(combine(parts)) }))
    .sort(
      (a, b) =>
        b.messagesSent - a.messagesSent ||
        b.conversationsClosed - a.conversationsClosed ||
        String(a.assigneeId).localeCompare(String(b.assigneeId)),
    );
  return { range, agents };
};
