import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalStack } from '../../infra/local/stack';
import { workflowsWiring } from '../../functions/wiring/workflows';
import { client } from '../support/api';
import { startReceiver, type Received, type Receiver } from '../support/https-receiver';
import { startTestStack } from '../support/stack';
import { createTenant } from '../support/tenants';
import { childProcesses } from '../support/child-stack';
import { runStep } from '../../shared/workflows/runner';
import { workflowQueue } from '../../shared/workflows/queue';
import { getExecution } from '../../shared/data/workflow-executions';
import { registerClientPlugin } from '../../shared/aws/plugins';
import { useCapturedLogs } from '../support/captured-logs';
import { skipVisibilityTimeout } from '../support/visibility';
import { call, createWorkflow, edge, finished, trigger } from '../support/workflows';

/**
 * The step worker runs in a child process that is SIGKILLed while a step's HTTP request is in flight (the
 * receiver holds it unanswered). The queue hands the step's message to the restarted worker once its
 * visibility timeout (150 s, from the wiring) passes, which the test skips rather than waits out
 * (`support/visibility.ts`); the step runs again with the same idempotency key, and no step whose effect
 * completed runs again.
 */
let stack: LocalStack;
let receiver: Receiver;
let dataDir: string;
const children = childProcesses();
const startWorkers = async (clockAheadMs = 0) =>
  (await children.start(stack, dataDir, { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' }, clockAheadMs)).child;
const keyOf = (r: Received) => r.headers['idempotency-key'] as string;

/** Each step message as it is sent, and whether its execution was in the table at that moment. */
const stepSends: { executionId: string; written: boolean }[] = [];
registerClientPlugin({
  applyToStack: (middleware) =>
    middleware.add(
      (next, context) => async (args) => {
        const input = args.input as { QueueUrl?: string; Entries?: { MessageBody: string }[] };
        if (context.commandName === 'SendMessageBatchCommand' && input.QueueUrl === process.env[workflowQueue.env]) {
          for (const entry of input.Entries ?? []) {
            const m = workflowQueue.message.parse(JSON.parse(entry.MessageBody));
            stepSends.push({ executionId: m.executionId, written: (await getExecution(m.tenant, m.executionId)) !== undefined });
          }
        }
        return next(args);
      },
      { step: 'initialize', name: 'testStepSendOrder' },
    ),
});

beforeAll(async () => {
  stack = await startTestStack({ workers: false, env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
  let held = false;
  receiver = await startReceiver((req) => {
    if (keyOf(req).endsWith(':two:1') && !held) {
      held = true;
      return 'hang';
    }
    return { status: 200 };
  });
  dataDir = mkdtempSync(join(tmpdir(), 'parley-wf-crash-'));
});
afterAll(async () => {
  await children.killAll();
  await receiver?.stop();
  await stack?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

it('a worker killed mid-step: the execution still finishes, and no completed effect happens twice', { timeout: 300_000 }, async () => {
  const api = client(stack.baseUrl, await createTenant());
  const w = await createWorkflow(api, {
    nodes: [call('one', receiver.url), call('two', receiver.url), call('three', receiver.url)],
    edges: [edge('one', 'two'), edge('two', 'three')],
  });
  const first = await startWorkers();
  const run = await trigger(api, w._id);
  await receiver.waitUntil((all) => all.some((r) => keyOf(r).endsWith(':two:1')), 30_000);
  await children.kill(first);

  const skipped = await skipVisibilityTimeout(stack, workflowsWiring.queues[0]!.name, Date.now());
  await startWorkers(skipped.aheadMs);
  await skipped.lapse();
  const done = await finished(api, run._id, 120_000);
  expect(done.status).toBe('completed');
  expect(done.steps.map((s: any) => [s.nodeId, s.attempt, s.status])).toEqual([
    ['one', 1, 'succeeded'],
    ['two', 1, 'succeeded'],
    ['three', 1, 'succeeded'],
  ]);
  // `two` arrived twice under one key (the first never answered: its effect never completed); nothing else repeated.
  expect(receiver.received.map(keyOf)).toEqual([`${run._id}:one:1`, `${run._id}:two:1`, `${run._id}:two:1`, `${run._id}:three:1`]);
  await children.killAll();
});

it('a step message delivered again after its step was recorded repeats nothing', { timeout: 60_000 }, async () => {
  const t = await createTenant();
  const api = client(stack.baseUrl, t);
  const w = await createWorkflow(api, { nodes: [call('once', receiver.url)], edges: [] });
  const run = await trigger(api, w._id);
  const before = receiver.received.length;
  const message = { tenant: t.tenant, executionId: run._id, seq: 0 };
  // No workers run now: this test is the queue consumer, and it receives the same message twice.
  expect(await runStep(message)).toEqual({ ack: true });
  expect(await runStep(message)).toEqual({ ack: true });
  const done = await finished(api, run._id);
  expect(done.steps.map((s: any) => [s.nodeId, s.attempt])).toEqual([['once', 1]]);
  expect(receiver.received.slice(before).map(keyOf)).toEqual([`${run._id}:once:1`]);
});

it('a run started under an Idempotency-Key sends its first step only once the run is written', async () => {
  const api = client(stack.baseUrl, await createTenant());
  const w = await createWorkflow(api, { nodes: [call('once', receiver.url)], edges: [] });
  const res = await api.post(`/api/v1/workflows/${w._id}/trigger`, {}, { 'Idempotency-Key': `run-${w._id}` });
  expect(res.status).toBe(202);
  const executionId = res.body.data.execution._id as string;
  // The request's writes commit with its idempotency record after the handler returns: a message sent before would name nothing.
  expect(stepSends.filter((s) => s.executionId === executionId)).toEqual([{ executionId, written: true }]);
});

describe('a step message that names no execution', () => {
  const logs = useCapturedLogs();
  it('is dropped with a warning', async () => {
    const t = await createTenant();
    expect(await runStep({ tenant: t.tenant, executionId: '0'.repeat(24), seq: 0 })).toEqual({ ack: true });
    expect(logs.filter((l) => l.level === 'WARN').map((l) => l.message)).toEqual(['workflow step message names no execution; dropped']);
  });
});
