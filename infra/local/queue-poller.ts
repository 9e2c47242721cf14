import { DeleteMessageBatchCommand, ReceiveMessageCommand, type Message, type SQSClient } from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import type { QueueSpec } from '../../functions/wiring/types';
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
 * Stands in for a Lambda SQS event source mapping with ReportBatchItemFailures: a long poll receives a
 * batch, hands it to an invocation of the consumer and receives again, with up to `maxConcurrency`
 * invocations running at once; each deletes only the messages its consumer did not report as failed.
 * A consumer that throws fails the whole batch, which reappears after its visibility timeout.
 *
 * One receive is open per queue, not one per invocation slot: the emulator answers every receive waiting
 * on a queue when one message arrives, so ten idle slots made nine empty receives per message, each a
 * round trip through the SDK and the emulator on the process's one thread: they made about half of the
 * time from a delivery's receive to its POST (`npm run bench -- webhooks`, docs/guide/webhooks.md).
 */
export class QueuePoller {
  private running = false;
  private loop?: Promise<void>;
  /** Ends the receive waiting on an empty queue when the poller stops. */
  private readonly stopping = new AbortController();

  constructor(
    private readonly sqs: SQSClient,
    private readonly spec: QueueSpec,
    private readonly queueUrl: string,
    private readonly queueArn: string,
  ) {}

  start(): void {
    this.running = true;
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.stopping.abort();
    await this.loop;
  }

  private async run(): Promise<void> {
    const invocations = new Set<Promise<void>>();
    while (this.running) {
      if (invocations.size >= this.spec.consumer.maxConcurrency) {
        await Promise.race(invocations);
        continue;
      }
      let messages: Message[];
      try {
        messages = await this.receive();
      } catch (error) {
        if (!this.running) break;
        this.report('queue poller error', error);
        await new Promise((r) => setTimeout(r, 500));
        continue;
      }
      if (messages.length === 0) continue;
      const invocation = this.invoke(messages).finally(() => invocations.delete(invocation));
      invocations.add(invocation);
    }
    await Promise.all(invocations);
  }

  private async receive(): Promise<Message[]> {
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
    return Messages;
  }

  private async invoke(messages: Message[]): Promise<void> {
    const event: SQSEvent = { Records: messages.map((m) => toRecord(m, this.queueArn)) };
    let failed: Set<string>;
    try {
      const response = await invoke<SQSBatchResponse | undefined>(this.spec.consumer, { kind: 'queue', consumes: this.spec.name }, event);
      failed = new Set((response?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
    } catch (error) {
      this.report('queue consumer failed', error);
      return;
    }
    const done = messages.filter((m) => !failed.has(m.MessageId!));
    if (done.length === 0) return;
    try {
      await this.sqs.send(
        new DeleteMessageBatchCommand({
          QueueUrl: this.queueUrl,
          Entries: done.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle! })),
        }),
      );
    } catch (error) {
      this.report('queue poller error', error);
    }
  }

  private report(msg: string, error: unknown): void {
    process.stderr.write(`${JSON.stringify({ level: 'error', msg, queue: this.spec.name, error: String(error) })}\n`);
  }
}
