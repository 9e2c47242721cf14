import { liveTenant } from '../../shared/domain/auth/tenant';
import { performance } from 'node:perf_hooks';
import { POOLS, sharePools } from '../../infra/local/aws-pools';
import type { LocalStack } from '../../infra/local/stack';
import { createSubscription } from '../../shared/webhooks/subscriptions';
import { renameWorkspace } from '../../shared/workspace/settings';
import { RATE_LIMITS } from '../../shared/domain/auth/rate-limit';
import { startReceiver } from '../support/https-receiver';
import { createTenant } from '../support/tenants';
import { measure, percentile, type Latency, type Section } from './measure';
import { rotatingTokens } from './seed';
import { direct } from '../../shared/data/unit';

const EVENTS = 300;
/** Workspaces the events come from, written in parallel, each renamed EVENTS / WRITERS times in a row. */
const WRITERS = 30;
const SUBSCRIPTIONS = 3;
const READERS = 4;
const IDLE_REQUESTS = 200;
/** Bounds on one burst's reads: by count, and by time (on a busy machine a burst may not have delivered everything by then). */
const MAX_BURST_REQUESTS = 20_000;
const BURST_TIMEOUT_MS = 240_000;

/**
 * An unrelated API read (`GET /inbox/conversations`) while 300 events fan out to 3 webhook subscriptions
 * each (900 signed deliveries to a local HTTPS receiver), with the SDK clients' calls in one shared pool
 * (the runtime before) and in the split pools (now), next to the same read with nothing else running.
 */
export const run = async (stack: LocalStack): Promise<Section[]> => {
  const received = new Set<string>();
  const receiver = await startReceiver((req) => {
    received.add(`${String(req.headers['x-webhook-id'])} ${req.headers['x-webhook-delivery'] ?? ''}`);
    return { status: 200 };
  });
  try {
    const reader = await createTenant(['inbox:read']);
    const token = await rotatingTokens(
      reader.workspaceId,
      ['inbox:read'],
      IDLE_REQUESTS + 2 * MAX_BURST_REQUESTS + 100,
      RATE_LIMITS.read - 5,
    );
    const read = async () => {
      const res = await fetch(`${stack.baseUrl}/api/v1/inbox/conversations?limit=20`, {
        headers: { authorization: `Bearer ${token()}`, 'x-workspace-id': reader.workspaceId },
      });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`burst bench: inbox read answered ${res.status}`);
    };
    const idle = await measure(read, { requests: IDLE_REQUESTS, concurrency: READERS });

    const burst = async (): Promise<Latency & { delivered: string }> => {
      const writers = await Promise.all(Array.from({ length: WRITERS }, () => createTenant()));
      for (const { workspaceId } of writers) {
        for (let s = 0; s < SUBSCRIPTIONS; s++)
          await createSubscription(
            direct,
            liveTenant(workspaceId),
            { url: `${receiver.url}?s=${s}`, events: ['auth.workspace.*'] },
            new Date(),
          );
      }
      const already = received.size;
      const expected = already + EVENTS * SUBSCRIPTIONS;
      const started = performance.now();
      const deadline = Date.now() + BURST_TIMEOUT_MS;
      const writing = Promise.all(
        writers.map(async ({ workspaceId }, w) => {
          for (let i = 0; i < EVENTS / WRITERS; i++) await renameWorkspace(direct, workspaceId, `burst ${w}.${i}`);
        }),
      );
      const durations: number[] = [];
      const progress = setInterval(
        () => process.stderr.write(`burst: ${received.size - already}/${EVENTS * SUBSCRIPTIONS} delivered, ${durations.length} reads\n`),
        15_000,
      );
      await Promise.all(
        Array.from({ length: READERS }, async () => {
          while (received.size < expected && durations.length < MAX_BURST_REQUESTS && Date.now() < deadline) {
            const t = performance.now();
            await read();
            durations.push(performance.now() - t);
          }
        }),
      );
      clearInterval(progress);
      const seconds = (performance.now() - started) / 1000;
      await writing;
      durations.sort((a, b) => a - b);
      return {
        requests: durations.length,
        concurrency: READERS,
        p50Ms: percentile(durations, 50),
        p99Ms: percentile(durations, 99),
        rps: durations.length / seconds,
        delivered: `${received.size - already} in ${seconds.toFixed(0)} s`,
      };
    };

    sharePools(true);
    const before = await burst().finally(() => sharePools(false));
    // The second burst starts on an idle pipeline: the first one's deliveries drain first (bounded by time).
    const drainUntil = Date.now() + BURST_TIMEOUT_MS;
    while (received.size < EVENTS * SUBSCRIPTIONS && Date.now() < drainUntil) await new Promise((r) => setTimeout(r, 1000));
    const after = await burst();
    return [
      {
        title: `Burst: an unrelated API read while ${EVENTS} events fan out to ${SUBSCRIPTIONS} webhook subscriptions each`,
        columns: [
          'SDK connection pools',
          'reads',
          'read p50 ms',
          'read p99 ms',
          `deliveries (of ${EVENTS * SUBSCRIPTIONS})`,
          'p99 vs split pools',
        ],
        rows: [
          ['no burst (idle)', idle.requests, idle.p50Ms, idle.p99Ms, '-', `${(idle.p99Ms / after.p99Ms).toFixed(2)}x`],
          [
            'one shared pool of 50 (before)',
            before.requests,
            before.p50Ms,
            before.p99Ms,
            before.delivered,
            `${(before.p99Ms / after.p99Ms).toFixed(2)}x`,
          ],
          [
            `split: API ${POOLS.requests}, background ${POOLS.background} (now)`,
            after.requests,
            after.p50Ms,
            after.p99Ms,
            after.delivered,
            '1.00x',
          ],
        ],
        notes: [
          `${READERS} readers loop GET /api/v1/inbox/conversations from the first event write until all ${EVENTS * SUBSCRIPTIONS} signed`,
          `deliveries reached the local HTTPS receiver, or ${BURST_TIMEOUT_MS / 1000} s passed (events: ${WRITERS} workspaces renamed in parallel).`,
          'Both bursts run in this process, one after the other; deliveries of the first that arrive during the second count for the second.',
        ],
      },
    ];
  } finally {
    await receiver.stop();
  }
};
