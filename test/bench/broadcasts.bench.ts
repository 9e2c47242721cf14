import { performance } from 'node:perf_hooks';
import {
  CreateQueueCommand,
  DeleteMessageBatchCommand,
  DeleteQueueCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import { nameOf, onInvoke } from '../../infra/local/lambda';
import type { LocalStack } from '../../infra/local/stack';
import { wiring } from '../../functions/wiring';
import { BROADCAST_QUEUE } from '../../functions/wiring/channels';
import { draftBroadcast, sendBroadcast } from '../../shared/broadcasts/service';
import { createChannel } from '../../shared/channels/accounts';
import { getBroadcast } from '../../shared/data/broadcasts';
import { createCustomers } from '../support/channels';
import { createTenant } from '../support/tenants';
import { meterFunctions, type FunctionWrites } from './capacity';
import type { Section } from './measure';
import { direct } from '../../shared/data/unit';

const RECIPIENTS = 300;
const METERED = 50;
const BROADCAST_CONSUMER = wiring.queues.find((q) => q.name === BROADCAST_QUEUE)!.consumer;

/** The floor: the same number of messages through a bare SQS queue on the same emulator, sent and received in batches of 10. */
const bareQueueLoop = async (stack: LocalStack, count: number): Promise<number> => {
  const sqs = new SQSClient({ endpoint: stack.sqsEndpoint, region: 'us-east-1' });
  const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: `bench-bare-${Date.now()}` }));
  const started = performance.now();
  for (let i = 0; i < count; i += 10) {
    await sqs.send(
      new SendMessageBatchCommand({
        QueueUrl,
        Entries: Array.from({ length: Math.min(10, count - i) }, (_, j) => ({ Id: String(j), MessageBody: JSON.stringify({ n: i + j }) })),
      }),
    );
  }
  let received = 0;
  while (received < count) {
    const { Messages = [] } = await sqs.send(new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }));
    if (Messages.length > 0)
      await sqs.send(
        new DeleteMessageBatchCommand({ QueueUrl, Entries: Messages.map((m, j) => ({ Id: String(j), ReceiptHandle: m.ReceiptHandle! })) }),
      );
    received += Messages.length;
  }
  const seconds = (performance.now() - started) / 1000;
  await sqs.send(new DeleteQueueCommand({ QueueUrl }));
  return count / seconds;
};

let running = 0;
let lastEnded = 0;
onInvoke(() => {
  running++;
  return () => {
    running--;
    lastEnded = Date.now();
  };
});
/** Until no function has run for `quietMs`: the events of the set-up (a customer.created each) are handled before the timing starts. */
const settled = async (quietMs = 2000): Promise<void> => {
  while (running > 0 || Date.now() - lastEnded < quietMs) await new Promise((r) => setTimeout(r, 200));
};

/** Sends a broadcast to `count` new customers through a new sandbox account at its default throttle; returns its seconds and the account's rate. */
const sendToNewCustomers = async (count: number): Promise<{ seconds: number; ratePerSecond: number }> => {
  const { tenant } = await createTenant();
  const now = new Date();
  const { account } = await createChannel(
    direct,
    tenant,
    { type: 'sandbox', name: 'bench', config: { deliver: true, read: false, failWith: null } },
    now,
  );
  const customerIds = await createCustomers(tenant, count, 25);
  const broadcast = await draftBroadcast(
    direct,
    tenant,
    { name: 'bench', channelId: account._id, audience: { customerIds }, content: 'Hello' },
    now,
  );
  await settled();
  const started = performance.now();
  await sendBroadcast(direct, tenant, broadcast._id, new Date());
  const deadline = Date.now() + 300_000;
  for (;;) {
    const stored = await getBroadcast(tenant, broadcast._id);
    if (stored?.broadcast.status === 'sent') break;
    if (Date.now() > deadline) throw new Error('broadcast bench: the broadcast did not finish in time');
    await new Promise((r) => setTimeout(r, 50));
  }
  return { seconds: (performance.now() - started) / 1000, ratePerSecond: account.ratePerSecond };
};

/**
 * Broadcast send throughput: recipients per second from `send` to `sent` through the real fan-out and
 * recipient workers to the sandbox provider at its default throttle, next to a bare queue loop. Then the
 * write units per recipient, from a smaller broadcast run with the capacity meter on (its reads of item
 * images would slow the timed one).
 */
export const run = async (stack: LocalStack): Promise<Section[]> => {
  const baseline = await bareQueueLoop(stack, RECIPIENTS);
  const { seconds, ratePerSecond } = await sendToNewCustomers(RECIPIENTS);
  const rate = RECIPIENTS / seconds;
  const writes = await meterFunctions(async () => void (await sendToNewCustomers(METERED)));
  const sum = (fns: FunctionWrites[]) => fns.reduce((n, w) => n + w.units, 0) / METERED;
  const consumer = writes.get(nameOf(BROADCAST_CONSUMER)) ?? { calls: 0, items: 0, units: 0 };
  return [
    {
      title: `Broadcasts: send throughput to the sandbox (${RECIPIENTS} recipients, one channel account at its default ${ratePerSecond}/s)`,
      columns: ['path', 'recipients or messages / s', 'vs baseline'],
      rows: [
        ['baseline: bare SQS send + receive + delete loop, batches of 10', baseline, '1.00x'],
        ['broadcast: send → fan-out → claim, throttle slots, sandbox send, stats → sent', rate, `${(rate / baseline).toFixed(2)}x`],
      ],
      notes: [
        "The fan-out enqueues 10 recipients to a message. A batch of one broadcast's messages is sent to in runs of up to 49",
        'recipients side by side; a run costs one read (broadcast, channel, recipients, customers), one throttle-slot add, one',
        'claim transaction, and transactions of up to 99 writes recording the sends (status with receipts, stats shard, sandbox',
        'log, send record, event); the batch one completion check. The baseline makes one queue round trip per 10 messages.',
      ],
    },
    {
      title: `Broadcasts: write units per recipient (${METERED} recipients, capacity meter on)`,
      columns: ['writer', 'WCU / recipient'],
      rows: [
        [`queue broadcast-sends (fan-out and sends, ${consumer.calls} invocations)`, consumer.units / METERED],
        ["every function (with the consumers of the broadcast's events)", sum([...writes.values()])],
      ],
      notes: ["Transactions' table units doubled as DynamoDB bills them (see `npm run bench -- cost`)."],
    },
  ];
};
