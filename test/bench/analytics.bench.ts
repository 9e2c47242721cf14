import type { Tenant } from '../../shared/domain/auth/tenant';
import type { LocalStack } from '../../infra/local/stack';
import { addDays } from '../../shared/domain/analytics/calendar';
import { addToAgentDay, addToDay } from '../../shared/data/analytics';
import { tenantPk } from '../../shared/data/keys';
import { collect, queryAll } from '../../shared/data/query';
import { mapLimit } from '../../shared/domain/map-limit';
import { direct } from '../../shared/data/unit';
import { RATE_LIMITS } from '../../shared/domain/auth/rate-limit';
import { createTenant } from '../support/tenants';
import { measureInterleaved, type Latency, type Section } from './measure';
import { tokenPool } from './token-pool';

const DAYS = 90;
const AGENTS = 5;
const REQUESTS = 60;
const FROM = '2026-01-01';
const TO = addDays(FROM, DAYS - 1);

/** A busy day: every counter, ~40 buckets of each duration sketch, a pipeline of 5 stages, two currencies. */
const busyDay = (d: number) => ({
  counts: {
    conversationsOpened: 120 + d,
    conversationsClosed: 110,
    messagesIn: 900,
    messagesOut: 800,
    aiMessagesOut: 90,
    leadsCreated: 30,
    leadsWon: 6,
    leadsLost: 4,
    'wonValue:USD': 600_000,
    'wonValue:EUR': 250_000,
    webhookAttempts: 2_000,
    webhookDelivered: 1_950,
    webhookFailed: 10,
    ...Object.fromEntries(Array.from({ length: 5 }, (_, s) => [`stage:${'p'.repeat(24)}:${String(s).repeat(24)}`, 30 - s * 5])),
  },
  samples: {},
});

/** Seeds `DAYS` days of aggregates (sketch buckets one ADD per sample, as the consumer writes them). */
const seed = async (tenant: Tenant) => {
  await mapLimit(
    Array.from({ length: DAYS }, (_, d) => d),
    8,
    async (d) => {
      const date = addDays(FROM, d);
      await direct.commit(addToDay(tenant, date, busyDay(d)));
      for (let s = 0; s < 40; s++) {
        const samples = { firstResponse: 2 ** (s / 4), resolution: 60 * 2 ** (s / 4), webhookLatencyMs: 10 * 2 ** (s / 8) };
        await direct.commit(addToDay(tenant, date, { counts: {}, samples }));
      }
      for (let a = 0; a < AGENTS; a++) {
        await direct.commit(
          addToAgentDay(tenant, date, `${a}`.repeat(24), {
            counts: { messagesOut: 100, conversationsClosed: 20 },
            samples: { firstResponse: 30 * (a + 1), resolution: 3600 },
          }),
        );
      }
    },
  );
};

const row = (name: string, l: Latency, base: Latency) => [name, l.p50Ms, l.p99Ms, l.p50Ms / base.p50Ms, l.p99Ms / base.p99Ms];

/**
 * Report latency over 90 days through HTTP against the bare Query of the same 90 day items, in process
 * (no HTTP): what a report adds is the HTTP pipeline, the workspace read for its timezone and the merge.
 */
export const run = async (stack: LocalStack): Promise<Section[]> => {
  const { workspaceId, tenant } = await createTenant(['admin:all']);
  await seed(tenant);
  const readToken = tokenPool(workspaceId, RATE_LIMITS.read, 'analytics:read');
  const get = async (path: string) => {
    const res = await fetch(`${stack.baseUrl}${path}`, {
      headers: { authorization: `Bearer ${await readToken()}`, 'x-workspace-id': workspaceId },
    });
    if (!res.ok) throw new Error(`${path}: unexpected ${res.status} ${await res.text()}`);
    return res.json();
  };
  const range = `from=${FROM}&to=${TO}`;
  let items = 0;
  const l = await measureInterleaved(
    {
      query: async () => {
        items = (await collect(queryAll({ pk: tenantPk(tenant, 'ANDAY'), skBetween: [FROM, TO] }))).length;
      },
      overview: () => get(`/api/v1/analytics/overview?${range}`),
      daily: () => get(`/api/v1/analytics/conversations?${range}`),
      weekly: () => get(`/api/v1/analytics/conversations?${range}&interval=week`),
      agents: () => get(`/api/v1/analytics/agents?${range}`),
    },
    { requests: REQUESTS, warmup: 3 },
  );
  if (items !== DAYS) throw new Error(`the bare Query read ${items} items, not ${DAYS}`);
  return [
    {
      title: `Analytics: reports over ${DAYS} days vs a bare Query of the same ${DAYS} day items`,
      columns: ['call', 'p50 ms', 'p99 ms', 'p50 ÷ baseline', 'p99 ÷ baseline'],
      rows: [
        row(`Query of ${DAYS} day items, in process (baseline)`, l.query, l.query),
        row('GET /analytics/overview', l.overview, l.query),
        row('GET /analytics/conversations, daily series', l.daily, l.query),
        row('GET /analytics/conversations, weekly series', l.weekly, l.query),
        row(`GET /analytics/agents (${AGENTS} agents: ${DAYS * AGENTS} items)`, l.agents, l.query),
      ],
      notes: [`Each day item holds 18 counters and 120 sketch buckets; an agent day item 2 counters and 2 buckets.`],
    },
  ];
};
