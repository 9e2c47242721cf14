import { CreateQueueCommand, ReceiveMessageCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { SQSRecord } from 'aws-lambda';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import { startSqsLocal, type SqsLocal } from '../../infra/local/sqs';
import { VersionConflict } from '../../shared/data/retry';
import { useLogSink, type LogRecord } from '../../shared/log';
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

/** Sends one message and receives it as Lambda's event source would hand it over. */
const received = async (itemId: string): Promise<SQSRecord> => {
  await sqs.send(new SendMessageCommand({ QueueUrl: url, MessageBody: JSON.stringify({ itemId }) }));
  const { Messages = [] } = await sqs.send(new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 1 }));
  const [m] = Messages;
  expect(JSON.parse(m!.Body!)).toEqual({ itemId });
  return { messageId: m!.MessageId!, receiptHandle: m!.ReceiptHandle!, body: m!.Body! } as SQSRecord;
};

/** Runs `failure` as the handling of one fresh message; returns how long until it is visible again, and the logs. */
const handleFailing = async (itemId: string, failure: Error) => {
  // Imported once the queue's URL is in the environment, which the configuration reads once.
  const { consumer } = await import('../../shared/queues');
  const handler = consumer(
    { env: 'WORKFLOW_QUEUE_URL', name: 'test item', message: z.object({ itemId: z.string() }) },
    async () => {
      throw failure;
    },
    (m) => ({ deliveryId: m.itemId }),
  );
  const record = await received(itemId);
  const logs: LogRecord[] = [];
  const undo = useLogSink({ level: 'debug', write: (r) => logs.push(r) });
  const handledAt = Date.now();
  try {
    expect((await handler({ Records: [record] })).batchItemFailures).toEqual([{ itemIdentifier: record.messageId }]);
  } finally {
    undo();
  }
  const held = (await inflight(sqsLocal.endpoint, QUEUE)).find((m) => m.receiptHandle === record.receiptHandle);
  return { visibleInMs: held!.visibilityDeadline - handledAt, logs };
};

it('a group that lost to contention is back within seconds, and logged as a warning', async () => {
  for (let i = 0; i < 5; i++) {
    const { visibleInMs, logs } = await handleFailing(`lost-${i}`, new VersionConflict());
    // Whole seconds from the change, which comes a little after `handledAt`.
    expect(visibleInMs).toBeGreaterThanOrEqual(1000);
    expect(visibleInMs).toBeLessThanOrEqual(6000);
    expect(logs).toEqual([
      expect.objectContaining({
        level: 'WARN',
        message: 'test item message met contention; it is tried again shortly',
        deliveryId: `lost-${i}`,
      }),
    ]);
  }
});

it('a group that failed for any other reason waits out the visibility timeout, logged as an error', async () => {
  const { visibleInMs, logs } = await handleFailing('broken', new Error('boom'));
  expect(visibleInMs).toBeGreaterThan((VISIBILITY_SECONDS - 5) * 1000);
  expect(logs).toEqual([expect.objectContaining({ level: 'ERROR', message: 'test item message failed' })]);
});
