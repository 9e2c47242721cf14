import { liveTenant } from '../../shared/domain/auth/tenant';
import { performance } from 'node:perf_hooks';
import { nameOf, onInvoke } from '../../infra/local/lambda';
import type { LocalStack } from '../../infra/local/stack';
import { wiring } from '../../functions/wiring';
import { createSubscription } from '../../shared/webhooks/subscriptions';
import { renameWorkspace } from '../../shared/workspace/settings';
import { outboxItem } from '../../shared/data/outbox';
import { direct } from '../../shared/data/unit';
import { buildEnvelope } from '../../shared/events/envelope';
import { postWebhook } from '../../shared/outbound/https';
import { deliveryHeaders } from '../../shared/domain/webhooks/sign';
import { startReceiver } from '../support/https-receiver';
import { createTenant } from '../support/tenants';
import { meterWrites } from './capacity';
import { percentile, measure, type Section } from './measure';

const LATENCY_EVENTS = { 1: 30, 50: 8 } as const;
/** Untimed events through the whole pipeline before each latency run, as `measure` warms up its baselines (20 runs). */
const WARMUP_EVENTS = { 1: 20, 50: 4 } as const;
const THROUGHPUT_EVENTS = { 1: 400, 50: 8 } as const;
/** Events written concurrently in the throughput runs. */
const WRITERS = 8;
const COST_EVENTS = 40;
/** Lengthens the workspace name so that each cost event's body is about 1 KB. */
const PADDING = 'x'.repeat(120);

const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );

const FANOUT = nameOf(wiring.rules.find((r) => r.name === 'webhook-fanout')!.target);
const WORKER = nameOf(wiring.queues.find((q) => q.name === 'webhook-deliveries')!.consumer);

/** When each event's fan-out started and ended, and when each delivery's worker first started (in-process clock). */
const stageClock = () => {
  const fanOuts = new Map<string, { start: number; end: number }>();
  const workers = new Map<string, number>();
  onInvoke((name, event) => {
    const now = performance.now();
    if (name === FANOUT) {
      const eventId = (event as { detail: { dynamodb: { NewImage: { eventId: { S: string } } } } }).detail.dynamodb.NewImage.eventId.S;
      if (fanOuts.has(eventId)) return undefined;
      // Still running when the first delivery arrives (its later groups), its end stays unknown: past the worker's start.
      const times = { start: now, end: Infinity };
      fanOuts.set(eventId, times);
      return () => {
        times.end = performance.now();
      };
    }
    if (name === WORKER) {
      for (const r of (event as { Records: { body: string }[] }).Records) {
        const { deliveryId } = JSON.parse(r.body) as { deliveryId: string };
        if (!workers.has(deliveryId)) workers.set(deliveryId, now);
      }
    }
    return undefined;
  });
  return { fanOuts, workers };
};

/**
 * Event → delivery through the whole pipeline (outbox write, stream poller, fan-out, queue, worker,
 * signed HTTPS POST) against a local HTTPS receiver, next to a baseline that POSTs the same bodies with
 * the same HTTP client directly. Events are real `auth.workspace.updated` writes.
 */
export const run = async (_stack: LocalStack): Promise<Section[]> => {
  const arrivals = new Map<string, number[]>();
  const firstDelivery = new Map<string, string>();
  const bodyBytes: number[] = [];
  const clock = stageClock();
  const receiver = await startReceiver((req) => {
    const eventId = req.headers['x-webhook-id'] as string | undefined;
    if (eventId) arrivals.set(eventId, [...(arrivals.get(eventId) ?? []), performance.now()]);
    if (eventId && !firstDelivery.has(eventId)) firstDelivery.set(eventId, req.headers['x-webhook-delivery'] as string);
    bodyBytes.push(Buffer.byteLength(req.body));
    return { status: 200 };
  });
  const waitForDeliveries = async (eventIds: string[], perEvent: number, timeoutMs = 120_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!eventIds.every((id) => (arrivals.get(id)?.length ?? 0) >= perEvent)) {
      if (Date.now() > deadline) throw new Error('webhook bench: deliveries did not arrive in time');
      await new Promise((r) => setTimeout(r, 5));
    }
  };

  try {
    const sampleBody = JSON.stringify({
      eventId: '0'.repeat(24),
      eventType: 'auth.workspace.updated',
      workspaceId: '1'.repeat(24),
      occurredAt: new Date().toISOString(),
      apiVersion: 'v1',
      data: { workspace: { name: 'bench' } },
    });
    const headers = deliveryHeaders('whs_bench_secret_0123456789', sampleBody, {
      eventId: 'x',
      eventType: 'auth.workspace.updated',
      deliveryId: 'y',
      attemptNumber: 1,
      timestamp: 0,
    });
    const directPost = () => postWebhook(receiver.url, sampleBody, headers, { allowLoopback: true });
    const baselineSerial = await measure(directPost, { requests: 100, concurrency: 1 });
    const baselineParallel = await measure(directPost, { requests: 300, concurrency: 10 });

    const stageRows: (string | number)[][] = [];
    const rows: (string | number)[][] = [
      ['baseline: direct POST, same client', '-', baselineSerial.p50Ms, baselineSerial.p99Ms, baselineParallel.rps, '-', '1.00x / 1.00x'],
    ];
    for (const subs of [1, 50] as const) {
      const { workspaceId } = await createTenant();
      for (let i = 0; i < subs; i++) {
        await createSubscription(
          direct,
          liveTenant(workspaceId),
          { url: `${receiver.url}?s=${i}`, events: ['auth.workspace.*'] },
          new Date(),
        );
      }
      let n = 0;
      const emit = async () => {
        const before = performance.now();
        await renameWorkspace(direct, workspaceId, `bench ${n++}`);
        return { started: before, written: performance.now() };
      };
      const eventIdsSince = (seen: Set<string>) => [...arrivals.keys()].filter((id) => !seen.has(id));

      /** Writes one event and waits for every delivery of it: its id, and when its write started and ended. */
      const oneEvent = async () => {
        const seen = new Set(arrivals.keys());
        const times = await emit();
        while (eventIdsSince(seen).length === 0) await new Promise((r) => setTimeout(r, 2));
        const [id] = eventIdsSince(seen);
        await waitForDeliveries([id!], subs);
        return { id: id!, ...times };
      };
      for (let i = 0; i < WARMUP_EVENTS[subs]; i++) await oneEvent();

      // Latency: one event at a time, from just before its write to the first signed delivery arriving.
      const latencies: number[] = [];
      const stages = { write: [] as number[], poll: [] as number[], fanOut: [] as number[], queue: [] as number[], send: [] as number[] };
      for (let i = 0; i < LATENCY_EVENTS[subs]; i++) {
        const { id, started, written } = await oneEvent();
        const arrived = arrivals.get(id)![0]!;
        latencies.push(arrived - started);
        const fanOut = clock.fanOuts.get(id);
        const worker = clock.workers.get(firstDelivery.get(id)!);
        if (fanOut && worker !== undefined) {
          stages.write.push(written - started);
          stages.poll.push(fanOut.start - written);
          stages.fanOut.push(Math.min(fanOut.end, worker) - fanOut.start);
          stages.queue.push(Math.max(0, worker - fanOut.end));
          stages.send.push(arrived - worker);
        }
      }
      latencies.sort((a, b) => a - b);
      const medians = Object.fromEntries(Object.entries(stages).map(([k, v]) => [k, v.length ? median(v) : 0])) as Record<
        keyof typeof stages,
        number
      >;
      const sum = Object.values(medians).reduce((a, b) => a + b, 0) || 1;
      const share = (k: keyof typeof stages) => `${medians[k].toFixed(1)} ms (${Math.round((100 * medians[k]) / sum)} %)`;
      stageRows.push([
        `${subs} subscription${subs > 1 ? 's' : ''}`,
        share('write'),
        share('poll'),
        share('fanOut'),
        share('queue'),
        share('send'),
      ]);

      // Throughput: events written WRITERS at a time until every delivery of every event has arrived. Each is
      // the outbox item a rename writes, without the rename: renames of one workspace are conditional on its
      // last change, so they go one at a time, and their rate would bound this one.
      const seen = new Set(arrivals.keys());
      const cpuBefore = process.cpuUsage();
      const started = performance.now();
      await measure(
        (i) =>
          direct.commit([
            outboxItem(buildEnvelope('auth.workspace.updated', liveTenant(workspaceId), { workspace: { name: `bench ${i}` } })),
          ]),
        {
          requests: THROUGHPUT_EVENTS[subs],
          concurrency: WRITERS,
          warmup: 0,
        },
      );
      const deliveries = THROUGHPUT_EVENTS[subs] * subs;
      while (eventIdsSince(seen).length < THROUGHPUT_EVENTS[subs]) await new Promise((r) => setTimeout(r, 5));
      await waitForDeliveries(eventIdsSince(seen), subs);
      const rps = (deliveries / (performance.now() - started)) * 1000;
      const cpu = process.cpuUsage(cpuBefore);
      const cpuMsPerDelivery = (cpu.user + cpu.system) / 1000 / deliveries;
      const p50 = percentile(latencies, 50);
      rows.push([
        `pipeline: event → delivery, ${subs} subscription${subs > 1 ? 's' : ''}`,
        deliveries,
        p50,
        percentile(latencies, 99),
        rps,
        cpuMsPerDelivery,
        `${(p50 / baselineSerial.p50Ms).toFixed(1)}x / ${(rps / baselineParallel.rps).toFixed(2)}x`,
      ]);
    }
    const cost = await writeUnitsPerDelivery(receiver.url, arrivals, waitForDeliveries, bodyBytes);
    return [
      cost,
      {
        title: 'Webhooks: event-to-first-delivery latency and sustained deliveries/s (local HTTPS receiver)',
        columns: ['path', 'deliveries', 'p50 ms', 'p99 ms', 'deliveries/s', 'CPU ms / delivery', 'latency / throughput vs baseline'],
        rows,
        notes: [
          'Latency: one event at a time, from the start of the domain write to the first signed POST reaching the receiver',
          `(baseline: one direct POST). Throughput: events (their outbox items) written ${WRITERS} at a time until every delivery`,
          'arrived (baseline: 10 concurrent direct POSTs). The pipeline adds the outbox stream poll, fan-out, SQS and the table writes.',
          "CPU ms / delivery: this process's CPU time (every function, the pollers, the SQS emulator, the receiver; not DynamoDB",
          "Local's) over the throughput run, per delivery: steadier than the rate on a shared machine, and the rate's bound when",
          'the process keeps its one thread busy.',
        ],
      },
      {
        title: "Webhooks: where the first delivery's time goes (median per stage, share of their sum)",
        columns: ['subscriptions', 'domain write', 'stream poll', 'fan-out', 'queue', 'send'],
        rows: stageRows,
        notes: [
          'Domain write: the rename that records the event (its outbox item). Stream poll: its commit until the fan-out starts',
          '(the wait for the stream poller, its read, the bus). Fan-out: until its deliveries are enqueued',
          "or the first worker starts. Queue: on to the worker's start (SQS receive). Send: the worker's reads, signing and the",
          'HTTPS POST until it reaches the receiver.',
        ],
      },
    ];
  } finally {
    await receiver.stop();
  }
};

/** Subscriptions in the second cost run: what each subscription past the first adds is its difference from the first run. */
const COST_SUBSCRIPTIONS = 3;

/**
 * DynamoDB write units one successful delivery costs end to end (fan-out, worker), excluding the domain write
 * that produced the event: events one at a time, every first attempt answered 200; with one subscription, and
 * with COST_SUBSCRIPTIONS for what each further one adds.
 */
const writeUnitsPerDelivery = async (
  url: string,
  arrivals: Map<string, number[]>,
  waitForDeliveries: (eventIds: string[], perEvent: number) => Promise<void>,
  bodyBytes: number[],
): Promise<Section> => {
  const perEvent = async (subs: number) => {
    const { workspaceId } = await createTenant();
    for (let i = 0; i < subs; i++)
      await createSubscription(direct, liveTenant(workspaceId), { url: `${url}?cost=${i}`, events: ['auth.workspace.*'] }, new Date());
    const seen = new Set(arrivals.keys());
    const units = await meterWrites(async () => {
      for (let i = 0; i < COST_EVENTS; i++) await renameWorkspace(direct, workspaceId, `cost ${i} ${PADDING}`);
      while ([...arrivals.keys()].filter((id) => !seen.has(id)).length < COST_EVENTS) await new Promise((r) => setTimeout(r, 5));
      await waitForDeliveries(
        [...arrivals.keys()].filter((id) => !seen.has(id)),
        subs,
      );
    });
    return new Map([...units].filter(([, wcu]) => wcu > 0).map(([name, wcu]) => [name, wcu / COST_EVENTS]));
  };
  bodyBytes.length = 0;
  const one = await perEvent(1);
  const bytes = Math.round(bodyBytes.reduce((a, b) => a + b, 0) / Math.max(1, bodyBytes.length));
  const several = await perEvent(COST_SUBSCRIPTIONS);
  const sum = (units: Map<string, number>) => [...units.values()].reduce((a, b) => a + b, 0);
  const total = sum(one);
  const further = (sum(several) - total) / (COST_SUBSCRIPTIONS - 1);
  return {
    title: 'Webhooks: DynamoDB write units per successful delivery (first attempt succeeds)',
    columns: ['function', 'WCU per delivery'],
    rows: [
      ...[...one.entries()].sort(([a], [b]) => a.localeCompare(b)),
      ['total, end to end (1 subscription)', total],
      [`each further subscription (${COST_SUBSCRIPTIONS} subscriptions against 1)`, further],
    ],
    notes: [
      `${COST_EVENTS} events of ${bytes} bytes on average, each delivered once per subscription. Units are those DynamoDB Local reports per write (1 KB steps), with transactional`,
      'writes doubled as DynamoDB bills them; the domain write that produced each event is not counted.',
      `At $0.625 per million on-demand WRU that is $${(total * 0.625).toFixed(2)} per million deliveries.`,
    ],
  };
};
