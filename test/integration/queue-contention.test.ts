import { CreateQueueCommand, ReceiveMessageCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { SQSRecord } from 'aws-lambda';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import { startSqsLocal, type SqsLocal } from '../../infra/local/sqs';
import { VersionConflict } from '../../shared/data/retry';
import { useCapturedLogs } from '../support/captured-logs';
import { inflight } from '../support/visibility';

/**
 * The shared consumer against the SQS emulator: a group that lost every retry of a transaction on a hot item
 * (100 deliveries of one failing endpoint each counting a failure on its subscription, say) comes back in
 * seconds, where the queue's visibility timeout would hold it for two minutes.
 */
const QUEUE = 'parley-contention-test';
const VISIBILITY_SECONDS = 120;
let sqsLocal: SqsLocal;
let sqs: SQSClient;
let url: string;

beforeAll(async () => {
  sqsLocal = await startSqsLocal();
  sqs = new SQSClient({
    endpoint: sqsLocal.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  url = (await sqs.send(new CreateQueueCommand({ QueueName: QUEUE, Attributes: { VisibilityTimeout: String(VISIBILITY_SECONDS) } })))
    .QueueUrl!;
  process.env.AWS_ACCESS_KEY_ID ??= 'local';
  process.env.AWS_SECRET_ACCESS_KEY ??= 'local';
  process.env.SQS_ENDPOINT = sqsLocal.endpoint;
  process.env.WORKFLOW_QUEUE_URL = url;
});
afterAll(async () => {
  sqs?.destroy();
  await sqsLocal?.stop();
});

/** Sends one message and receives it as Lambda's event source would hand it over, with its receive count. */
const received = async (itemId: string): Promise<SQSRecord> => {
  await sqs.send(new SendMessageCommand({ QueueUrl: url, MessageBody: JSON.stringify({ itemId }) }));
  const { Messages = [] } = await sqs.send(
    new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 1, MessageSystemAttributeNames: ['ApproximateReceiveCount'] }),
  );
  const [m] = Messages;
  expect(JSON.parse(m!.Body!)).toEqual({ itemId });
  expect(m!.Attributes?.ApproximateReceiveCount).toBe('1');
  return { messageId: m!.MessageId!, receiptHandle: m!.ReceiptHandle!, body: m!.Body!, attributes: m!.Attributes } as SQSRecord;
};

const logs = useCapturedLogs();

/**
 * Runs `failure` as the handling of one fresh message, handed over as on its `receives`-th receive;
 * returns how long until it is visible again.
 */
const handleFailing = async (itemId: string, failure: Error, receives = 1) => {
  // Imported once the queue's URL is in the environment, which the configuration reads once.
  const { consumer } = await import('../../shared/queues');
  const handler = consumer(
    { env: 'WORKFLOW_QUEUE_URL', name: 'test item', message: z.object({ itemId: z.string() }) },
    async () => {
      throw failure;
    },
    (m) => ({ deliveryId: m.itemId }),
  );
  const first = await received(itemId);
  const record = { ...first, attributes: { ...first.attributes, ApproximateReceiveCount: String(receives) } };
  const handledAt = Date.now();
  expect((await handler({ Records: [record] })).batchItemFailures).toEqual([{ itemIdentifier: record.messageId }]);
  const held = (await inflight(sqsLocal.endpoint, QUEUE)).find((m) => m.receiptHandle === record.receiptHandle);
  return held!.visibilityDeadline - handledAt;
};

const contentionWarning = (deliveryId: string) =>
  expect.objectContaining({ level: 'WARN', message: 'test item message met contention; it is tried again shortly', deliveryId });

// Delays are whole seconds from the change, which comes a little after `handledAt`.
it('a group that lost to contention on its first receive is back within about a second, logged as a warning', async () => {
  const visibleInMs = await handleFailing('first', new VersionConflict());
  expect(visibleInMs).toBeGreaterThanOrEqual(1000);
  expect(visibleInMs).toBeLessThanOrEqual(2000);
  expect(logs).toEqual([contentionWarning('first')]);
});

it('one that keeps losing waits longer with each receive, at most a minute, so it does not run through its maxReceiveCount in seconds', async () => {
  const fourth = await handleFailing('fourth', new VersionConflict(), 4);
  expect(fourth).toBeGreaterThanOrEqual(4000);
  expect(fourth).toBeLessThanOrEqual(9000);
  const twentieth = await handleFailing('twentieth', new VersionConflict(), 20);
  expect(twentieth).toBeGreaterThanOrEqual(30_000);
  expect(twentieth).toBeLessThanOrEqual(61_000);
  expect(logs).toEqual([contentionWarning('fourth'), contentionWarning('twentieth')]);
});

it('a group that failed for any other reason waits out the visibility timeout, logged as an error', async () => {
  const visibleInMs = await handleFailing('broken', new Error('boom'));
  expect(visibleInMs).toBeGreaterThan((VISIBILITY_SECONDS - 5) * 1000);
  expect(logs).toEqual([expect.objectContaining({ level: 'ERROR', message: 'test item message failed' })]);
});
