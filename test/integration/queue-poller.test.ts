import { GetQueueAttributesCommand, SendMessageBatchCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { QueuePoller } from '../../infra/local/queue-poller';
import { ensureQueue, startSqsLocal, type SqsLocal } from '../../infra/local/sqs';
import type { QueueSpec } from '../../functions/wiring/types';
import type { SlowConsumerLog } from '../support/fixtures/slow-consumer';

/**
 * A queue of its own per test: a stopped poller's receive, aborted by the client, stays open in the emulator
 * and takes the next message that arrives, as SQS does for a caller gone mid long poll.
 */
const specOf = (name: string): QueueSpec => ({
  name,
  urlEnv: 'POLLER_TEST_QUEUE_URL',
  visibilityTimeoutSeconds: 30,
  retentionDays: 1,
  dlq: { name: `${name}-dlq`, urlEnv: 'POLLER_TEST_DLQ_URL', maxReceiveCount: 3 },
  consumer: { handler: 'test/support/fixtures/slow-consumer.ts', access: { table: 'read' }, batchSize: 1, maxConcurrency: 4 },
});

let emulator: SqsLocal;
let sqs: SQSClient;
/** How many of the poller's receives came back, and how many of those came back empty. */
const receives = { answered: 0, empty: 0 };
const consumed = (): SlowConsumerLog => (globalThis as { slowConsumerLog?: SlowConsumerLog }).slowConsumerLog!;

beforeAll(async () => {
  emulator = await startSqsLocal();
  sqs = new SQSClient({
    endpoint: emulator.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  sqs.middlewareStack.add(
    (next, context) => async (args) => {
      const result = await next(args);
      if (context.commandName === 'ReceiveMessageCommand') {
        receives.answered++;
        if (!(result.output as { Messages?: unknown[] }).Messages?.length) receives.empty++;
      }
      return result;
    },
    { step: 'initialize', name: 'countReceives' },
  );
});
afterAll(async () => {
  sqs.destroy();
  await emulator.stop();
});
beforeEach(() => {
  Object.assign(receives, { answered: 0, empty: 0 });
  (globalThis as { slowConsumerLog?: SlowConsumerLog }).slowConsumerLog = { handled: [], running: 0, mostAtOnce: 0 };
});

const eventually = async (done: () => boolean, what: string) => {
  const deadline = Date.now() + 15_000;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
};

/** Runs `test` with a poller on a new queue named `name`, and stops the poller after it. */
const polling = async (name: string, test: (queueUrl: string) => Promise<void>) => {
  const spec = specOf(name);
  const queue = await ensureQueue(sqs, spec);
  const poller = new QueuePoller(sqs, spec, queue.url, queue.arn);
  poller.start();
  try {
    await test(queue.url);
  } finally {
    await poller.stop();
  }
  return queue.url;
};

it('keeps one receive open per queue: a message arriving at an idle queue is received once, with no empty answers to idle slots', async () => {
  await polling('poller-idle', async (QueueUrl) => {
    for (let i = 0; i < 5; i++) {
      await sqs.send(new SendMessageCommand({ QueueUrl, MessageBody: `one-${i}` }));
      await eventually(() => consumed().handled.length === i + 1, `message ${i}`);
    }
  });
  expect(consumed().handled).toEqual(['one-0', 'one-1', 'one-2', 'one-3', 'one-4']);
  expect(receives).toEqual({ answered: 5, empty: 0 });
});

it('runs up to maxConcurrency invocations at once, no more, and deletes every message it handled', async () => {
  const bodies = Array.from({ length: 12 }, (_, i) => `many-${i}`);
  const QueueUrl = await polling('poller-busy', async (QueueUrl) => {
    for (const chunk of [bodies.slice(0, 10), bodies.slice(10)])
      await sqs.send(new SendMessageBatchCommand({ QueueUrl, Entries: chunk.map((body, i) => ({ Id: String(i), MessageBody: body })) }));
    await eventually(() => consumed().handled.length === bodies.length, 'every message');
  });
  expect(consumed().handled.toSorted()).toEqual(bodies.toSorted());
  expect(consumed().mostAtOnce).toBe(specOf('any').consumer.maxConcurrency);
  const { Attributes } = await sqs.send(
    new GetQueueAttributesCommand({
      QueueUrl,
      AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
    }),
  );
  expect(Attributes).toEqual({ ApproximateNumberOfMessages: '0', ApproximateNumberOfMessagesNotVisible: '0' });
});
