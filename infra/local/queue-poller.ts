import { DeleteMessageBatchCommand, ReceiveMessageCommand, type Message, type SQSClient } from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import type { QueueSpec } from '../wiring/types';
import { invoke } from './lambda';

const toRecord = (message: Message, queueArn: string): SQSEvent['Records'][number] => ({
  messageId: message.MessageId!,
  receiptHandle: message.ReceiptHandle!,
  body: message.Body ?? '',
  attributes: {
    ApproximateReceiveCount: message.Attributes?.ApproximateReceiveCount ?? '1',
    SentTimestamp: message.Attributes?.SentTimestamp ?? String(Date.now()),
    SenderId: message.Attributes?.SenderId ?? 'local',
    ApproximateFirstReceiveTimestamp: message.Attributes?.ApproximateFirstReceiveTimestamp ?? String(Date.now()),
  },
  messageAttributes: Object.fromEntries(
    Object.entries(message.MessageAttributes ?? {}).map(([k, v]) => [
      k,
      { dataType: v.DataType ?? 'String', stringValue: v.StringValue, binaryValue: undefined, stringListValues: [], binaryListValues: [] },
    ]),
  ),
  md5OfBody: message.MD5OfBody ?? '',
  eventSource: 'aws:sqs',
  eventSourceARN: queueArn,
  awsRegion: 'us-east-1',
});

/** The event source mapping's long poll: a receive waits up to 20 s for a message and returns as soon as one arrives. */
export const LONG_POLL_SECONDS = 20;

/**
 * Stands in for a Lambda SQS event source mapping with ReportBatchItemFailures: up to `maxConcurrency`
 * pollers receive batches, invoke the consumer, and delete only the messages it did not report as failed.
 * A consumer that throws fails the whole batch, which reappears after its visibility timeout.
 */
export class QueuePoller {
  private running = false;
  private loops: Promise<void>[] = [];
  /** Ends the receives waiting on an empty queue when the poller stops. */
  private readonly stopping = new AbortController();

  constructor(
    private readonly sqs: SQSClient,
    private readonly spec: QueueSpec,
    private readonly queueUrl: string,
    private readonly queueArn: string,
  ) {}

  start(): void {
    this.running = true;
    this.loops = Array.from({ length: this.spec.consumer.maxConcurrency }, () => this.run());
  }

  async stop(): Promise<void> {
    this.running = false;
    this.stopping.abort();
    await Promise.all(this.loops);
  }

  private async run(): Promise<void> {
    while (this.running) {
      try {
        await this.poll();
      } catch (error) {
        if (!this.running) return;
        process.stderr.write(
          `${JSON.stringify({ level: 'error', msg: 'queue poller error', queue: this.spec.name, error: String(error) })}\n`,
        );
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  }

  private async poll(): Promise<void> {
    const { Messages = [] } = await this.sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: this.queueUrl,
        MaxNumberOfMessages: this.spec.consumer.batchSize,
        WaitTimeSeconds: LONG_POLL_SECONDS,
        MessageSystemAttributeNames: ['All'],
        MessageAttributeNames: ['All'],
      }),
      { abortSignal: this.stopping.signal },
    );
    if (Messages.length === 0) return;
    const event: SQSEvent = { Records: Messages.map((m) => toRecord(m, this.queueArn)) };
    let failed: Set<string>;
    try {
      const response = await invoke<SQSBatchResponse | undefined>(this.spec.consumer, { kind: 'queue', consumes: this.spec.name }, event);
      failed = new Set((response?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
    } catch (error) {
      process.stderr.write(
        `${JSON.stringify({ level: 'error', msg: 'queue consumer failed', queue: this.spec.name, error: String(error) })}\n`,
      );
      return;
    }
    const done = Messages.filter((m) => !failed.has(m.MessageId!));
    if (done.length > 0) {
      await this.sqs.send(
        new DeleteMessageBatchCommand({
          QueueUrl: this.queueUrl,
          Entries: done.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle! })),
        }),
      );
    }
  }
}
