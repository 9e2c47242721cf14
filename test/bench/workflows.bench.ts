import type { Tenant } from '../../shared/domain/auth/tenant';
import { performance } from 'node:perf_hooks';
import { CreateQueueCommand, DeleteQueueCommand, ReceiveMessageCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { LocalStack } from '../../infra/local/stack';
import { getExecution } from '../../shared/data/workflow-executions';
import { isFinished } from '../../shared/domain/workflows/execution';
import { createWorkflow } from '../../shared/workflows/definitions';
import { triggerManually } from '../../shared/workflows/triggers';
import { startReceiver, type Received } from '../support/https-receiver';
import { createTenant } from '../support/tenants';
import { percentile, type Section } from './measure';
import { direct } from '../../shared/data/unit';

const LATENCY_RUNS = 30;
const BASELINE_ROUND_TRIPS = 30;
const RETRY_RUNS = 3;
const RETRIES = 5;
const LINEAR_NODES = 20;
const LINEAR_RUNS = 5;
const PARALLEL_RUNS = 10;

const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Bare SQS on the same emulator: send one message, long-poll it back (with `delaySeconds`), delete it. */
const sqsRoundTrips = async (stack: LocalStack, count: number, delaySeconds = 0): Promise<number[]> => {
  const sqs = new SQSClient({ endpoint: stack.sqsEndpoint, region: 'us-east-1' });
  const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: `bench-baseline-${Date.now()}` }));
  const times: number[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const started = performance.now();
      await sqs.send(new SendMessageCommand({ QueueUrl, MessageBody: String(i), DelaySeconds: delaySeconds }));
      for (;;) {
        const { Messages = [] } = await sqs.send(new ReceiveMessageCommand({ QueueUrl, WaitTimeSeconds: 1, MaxNumberOfMessages: 1 }));
        if (Messages.length > 0) break;
      }
      times.push(performance.now() - started);
    }
  } finally {
    await sqs.send(new DeleteQueueCommand({ QueueUrl }));
    sqs.destroy();
  }
  return times;
};

const waitUntilFinished = async (tenant: Tenant, id: string) => {
  for (;;) {
    const e = await getExecution(tenant, id);
    if (e && isFinished(e.status)) return e;
    await sleep(10);
  }
};

/**
 * The workflow engine against a bare SQS round trip on the same emulator: how long a trigger takes to
 * reach its first step (an HTTPS request to a local receiver), how far timed retries land from their
 * schedule, and how many steps per second a 20-node linear workflow runs.
 */
export const run = async (stack: LocalStack): Promise<Section[]> => {
  const arrivals: Received[] = [];
  const ok = await startReceiver((req) => {
    arrivals.push(req);
    return { status: 200 };
  });
  const failing = await startReceiver((req) => {
    arrivals.push(req);
    return { status: 503 };
  });
  try {
    const { tenant: t } = await createTenant();
    const now = () => new Date();

    // 1. Trigger → first step.
    const baseline = sorted(await sqsRoundTrips(stack, BASELINE_ROUND_TRIPS));
    const single = await createWorkflow(
      direct,
      t,
      {
        name: 'first step',
        trigger: { type: 'manual' },
        nodes: [{ id: 'call', type: 'http_request', config: { method: 'POST', url: ok.url } }],
        edges: [],
      } as never,
      now(),
    );
    const latencies: number[] = [];
    for (let i = 0; i < LATENCY_RUNS; i++) {
      const before = arrivals.length;
      const started = performance.now();
      const e = await triggerManually(direct, t, single._id, undefined, now());
      while (arrivals.length === before) await sleep(1);
      latencies.push(arrivals[before]!.at - (Date.now() - (performance.now() - started)));
      await waitUntilFinished(t, e._id);
    }
    const lat = sorted(latencies);

    // 2. Timed retries: fixed 1 s, RETRIES retries per run; error = gap between attempts − 1000 ms.
    const delayed = sorted((await sqsRoundTrips(stack, 10, 1)).map((ms) => ms - 1000));
    const retrying = await createWorkflow(
      direct,
      t,
      {
        name: 'retries',
        trigger: { type: 'manual' },
        nodes: [
          { id: 'again', type: 'retry', config: { maxAttempts: RETRIES, backoff: 'fixed', baseDelaySeconds: 1 } },
          { id: 'call', type: 'http_request', config: { method: 'POST', url: failing.url } },
        ],
        edges: [{ from: 'again', to: 'call', branch: 'body' }],
      } as never,
      now(),
    );
    const errors: number[] = [];
    for (let i = 0; i < RETRY_RUNS; i++) {
      const before = arrivals.length;
      const e = await triggerManually(direct, t, retrying._id, undefined, now());
      await waitUntilFinished(t, e._id);
      const at = arrivals.slice(before).map((r) => r.at);
      for (let j = 1; j < at.length; j++) errors.push(at[j]! - at[j - 1]! - 1000);
    }
    const spacing = sorted(errors);

    // 3. Steps per second, 20-node linear workflow: one run at a time, then PARALLEL_RUNS at once.
    const nodes = Array.from({ length: LINEAR_NODES }, (_, i) => ({
      id: `n${i}`,
      type: 'set_variable',
      config: { name: `v${i}`, value: i },
    }));
    const edges = nodes.slice(1).map((n, i) => ({ from: `n${i}`, to: n.id, branch: 'next' }));
    const linear = await createWorkflow(direct, t, { name: 'linear', trigger: { type: 'manual' }, nodes, edges } as never, now());
    const serialStarted = performance.now();
    for (let i = 0; i < LINEAR_RUNS; i++) await waitUntilFinished(t, (await triggerManually(direct, t, linear._id, undefined, now()))._id);
    const serialRate = (LINEAR_RUNS * LINEAR_NODES) / ((performance.now() - serialStarted) / 1000);
    const parallelStarted = performance.now();
    const runs = await Promise.all(Array.from({ length: PARALLEL_RUNS }, () => triggerManually(direct, t, linear._id, undefined, now())));
    await Promise.all(runs.map((e) => waitUntilFinished(t, e._id)));
    const parallelRate = (PARALLEL_RUNS * LINEAR_NODES) / ((performance.now() - parallelStarted) / 1000);
    const baselineRate = 1000 / percentile(baseline, 50);

    return [
      {
        title: 'Workflows: trigger-to-first-step latency, timed-retry spacing, steps/s (local SQS emulator, HTTPS receiver)',
        columns: ['measure', 'samples', 'p50', 'p99 / max', 'vs baseline'],
        rows: [
          [
            'baseline: bare SQS send → receive round trip (ms)',
            BASELINE_ROUND_TRIPS,
            percentile(baseline, 50),
            percentile(baseline, 99),
            '1.00x',
          ],
          [
            'trigger → first step request at the receiver (ms)',
            LATENCY_RUNS,
            percentile(lat, 50),
            percentile(lat, 99),
            `${(percentile(lat, 50) / percentile(baseline, 50)).toFixed(1)}x`,
          ],
          ['baseline: SQS DelaySeconds=1 lateness (ms)', delayed.length, percentile(delayed, 50), delayed.at(-1)!, '1.00x'],
          [
            'timed retry spacing error, fixed 1 s (ms)',
            spacing.length,
            percentile(spacing, 50),
            spacing.at(-1)!,
            `${(percentile(spacing, 50) / Math.max(1, percentile(delayed, 50))).toFixed(1)}x`,
          ],
          ['baseline: sequential SQS round trips per second', BASELINE_ROUND_TRIPS, baselineRate, '-', '1.00x'],
          [
            `steps/s, ${LINEAR_NODES}-node linear workflow, 1 run at a time`,
            LINEAR_RUNS * LINEAR_NODES,
            serialRate,
            '-',
            `${(serialRate / baselineRate).toFixed(2)}x`,
          ],
          [
            `steps/s, ${LINEAR_NODES}-node linear workflow, ${PARALLEL_RUNS} runs at once`,
            PARALLEL_RUNS * LINEAR_NODES,
            parallelRate,
            '-',
            `${(parallelRate / baselineRate).toFixed(2)}x`,
          ],
        ],
        notes: [
          'Every step is one SQS message plus one DynamoDB transaction (state, step record, index, counters);',
          'a spacing error is (arrival of attempt n+1 − arrival of attempt n) − 1000 ms, so it includes the',
          "attempt's own duration; SQS delays are whole seconds and the worker never runs a step early.",
        ],
      },
    ];
  } finally {
    await ok.stop();
    await failing.stop();
  }
};
