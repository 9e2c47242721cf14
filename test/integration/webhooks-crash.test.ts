import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { LocalStack } from '../../infra/local/stack';
import { webhooksWiring } from '../../functions/wiring/webhooks';
import { client } from '../support/api';
import { childProcesses } from '../support/child-stack';
import { startReceiver, type Receiver } from '../support/https-receiver';
import { startTestStack } from '../support/stack';
import { createTenant, tokenFor } from '../support/tenants';
import { skipVisibilityTimeout } from '../support/visibility';
import { verifyDelivery } from '../support/webhooks';

/**
 * The workers (stream poller, fan-out, delivery worker) run in a child `npm start` process that is
 * SIGKILLed mid-delivery; DynamoDB Local, the SQS emulator and the gateway live in this test process,
 * as the managed services do in AWS, and survive the crash. The restarted workers run as if the queue's
 * visibility timeout (120 s, from the wiring) had been waited out: the emulator shows the message again,
 * and their clock is ahead by what was left of it (`support/visibility.ts`).
 */
let stack: LocalStack;
let receiver: Receiver;
let dataDir: string;
const children = childProcesses();
const startWorkers = async (clockAheadMs = 0) =>
  (await children.start(stack, dataDir, { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' }, clockAheadMs)).child;

beforeAll(async () => {
  stack = await startTestStack({ workers: false, env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
  receiver = await startReceiver((_req, i) => (i === 0 ? 'hang' : { status: 200 }));
  dataDir = mkdtempSync(join(tmpdir(), 'parley-crash-'));
});
afterAll(async () => {
  await children.killAll();
  await receiver?.stop();
  await stack?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

it('a worker killed mid-delivery still delivers the event afterwards, with the same eventId and bytes', { timeout: 270_000 }, async () => {
  const tenant = await createTenant();
  const api = client(stack.baseUrl, tenant);
  const sub = (await api.post('/api/v1/integrations/webhooks', { url: receiver.url, events: ['auth.token.revoked', 'auth.token.created'] }))
    .body.data.subscription;

  const first = await startWorkers();
  const { record } = await tokenFor([tenant.workspaceId], ['inbox:read']);
  const [held] = await receiver.waitFor(1, 30_000);
  await children.kill(first);

  // The killed worker's message comes back once the queue's visibility timeout has passed.
  const skipped = await skipVisibilityTimeout(stack, webhooksWiring.queues[0]!.name, Date.now());
  await startWorkers(skipped.aheadMs);
  await skipped.lapse();
  const [, redelivered] = await receiver.waitFor(2, 120_000);
  const body = await verifyDelivery(sub.secret, redelivered!);
  expect(body.data.token._id).toBe(record._id);
  expect(redelivered!.headers['x-webhook-id']).toBe(held!.headers['x-webhook-id']);
  expect(redelivered!.headers['x-webhook-delivery']).toBe(held!.headers['x-webhook-delivery']);
  expect(redelivered!.body).toBe(held!.body);
});
