import { performance } from 'node:perf_hooks';
import { CreateQueueCommand, DeleteMessageBatchCommand, DeleteQueueCommand, ReceiveMessageCommand, SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { LocalStack } from '../../infra/local/stack';
import { draftBroadcast, sendBroadcast } from '../../shared/broadcasts/service';
import { createChannel } from '../../shared/channels/accounts';
import { getBroadcast } from '../../shared/data/broadcasts';
import { createCustomers } from '../support/channels';
import { createTenant } from '../support/tenants';
import type { Section } from './measure';

const RECIPIENTS = 300;

/** The floor: the same number of messages through a bare SQS queue on the same emulator, sent and received in batches of 10. */
const bareQueueLoop = async (stack: LocalStack, count: number): Promise<number> => {
  const sqs = new SQSClient({ endpoint: stack.sqsEndpoint, region: 'us-east-1' });
  const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: `bench-bare-${Date.now()}` }));
  const started = performance.now();
  for (let i = 0; i < count; i += 10) {
    await sqs.send(new SendMessageBatchCommand({ QueueUrl, Entries: Array.from({ length: Math.min(10, count - i) }, (_, j) => ({ Id: String(j), MessageBody: JSON.stringify({ n: i + j }) })) }));
  }
  let received = 0;
  while (received < count) {
    const { Messages = [] } = await sqs.send(new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }));
    if (Messages.length > 0) await sqs.send(new DeleteMessageBatchCommand({ QueueUrl, Entries: Messages.map((m, j) => ({ Id: String(j), ReceiptHandle: m.ReceiptHandle! })) }));
    received += Messages.length;
  }
  const seconds = (performance.now() - started) / 1000;
  await sqs.send(new DeleteQueueCommand({ QueueUrl }));
  return count / seconds;
};

/**
 * Broadcast send throughput: recipients per second from `send` to `sent` through the real fan-out and
 * recipient workers to the sandbox provider (throttle set above the load), next to a bare queue loop.
 */
export const run = async (stack: LocalStack): Promise<Section[]> => {
  const baseline = await bareQueueLoop(stack, RECIPIENTS);
  const { tenant } = await createTenant();
  const now = new Date();
  const { account } = await createChannel(tenant, { type: 'sandbox', name: 'bench', ratePerSecond: 1000, config: { deliver: true, read: false, failWith: null } }, now);
  const customerIds = await createCustomers(tenant, RECIPIENTS, 25);
  const broadcast = await draftBroadcast(tenant, { name: 'bench', channelId: account._id, audience: { customerIds }, content: 'Hello' }, now);
  const started = performance.now();
  await sendBroadcast(tenant, broadcast._id, new Date());
  const deadline = Date.now() + 300_000;
  for (;;) {
    const stored = await getBroadcast(tenant, broadcast._id);
    if (stored?.broadcast.status === 'sent') break;
    if (Date.now() > deadline) throw new Error('broadcast bench: the broadcast did not finish in time');
    await new Promise((r) => setTimeout(r, 50));
  }
  const rate = RECIPIENTS / ((performance.now() - started) / 1000);
  return [
    {
      title: `Broadcasts: send throughput to the sandbox (${RECIPIENTS} recipients, one channel account)`,
      columns: ['path', 'recipients or messages / s', 'vs baseline'],
      rows: [
        ['baseline: bare SQS send + receive + delete loop, batches of 10', baseline, '1.00x'],
        ['broadcast: send → fan-out → claim, throttle slots, sandbox send, stats → sent', rate, `${(rate / baseline).toFixed(2)}x`],
      ],
      notes: [
        "A batch of one broadcast's recipients costs one read (broadcast, channel, recipients, customers), one throttle-slot add, one",
        'claim transaction, one transaction recording the sends (status with receipts, stats shard, sandbox log, send record, event)',
        'and a completion check, against one queue round trip per 10 messages in the baseline.',
      ],
    },
  ];
};
