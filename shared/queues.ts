import { ChangeMessageVisibilityCommand, SendMessageBatchCommand } from '@aws-sdk/client-sqs';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { config, type Config } from './config';
import { log } from './log';
import { sqs } from './aws/sqs';
import { addContext, withContext, type LogContext } from './observability/context';
import { requestIdOf } from './observability/correlation';
import { observed } from './observability/invocation';

/** SQS limits: DelaySeconds ≤ 900; a visibility timeout ≤ 12 h from receipt; 10 entries per batch. */
export const MAX_DELAY_SECONDS = 900;
const MAX_VISIBILITY_SECONDS = 11 * 3600;
const BATCH = 10;

/** What a worker decides for a message: delete it, or make it reappear after `delayMs`. */
export type Verdict = { ack: true } | { ack: false; delayMs: number };
export const ACK: Verdict = { ack: true };
export const later = (delayMs: number): Verdict => ({ ack: false, delayMs: Math.max(0, delayMs) });

type UrlEnv = Extract<keyof Config, `${string}_QUEUE_URL`>;

const urlOf = (env: UrlEnv): string => {
  const url = config()[env];
  if (!url) throw new Error(`${env} is not configured`);
  return url as string;
};

const seconds = (ms: number, cap: number) => Math.min(cap, Math.max(0, Math.ceil(ms / 1000)));

/** Sends JSON messages to the queue named by `env`, in batches, each visible after `delayMs` (≤ 900 s). */
export const sendMessages = async (env: UrlEnv, bodies: readonly object[], delayMs = 0): Promise<void> => {
  for (let i = 0; i < bodies.length; i += BATCH) {
    const chunk = bodies.slice(i, i + BATCH);
    const { Failed = [] } = await sqs().send(
      new SendMessageBatchCommand({
        QueueUrl: urlOf(env),
        Entries: chunk.map((body, j) => ({ Id: String(j), MessageBody: JSON.stringify(body), DelaySeconds: seconds(delayMs, MAX_DELAY_SECONDS) })),
      }),
    );
    if (Failed.length > 0) throw new Error(`failed to enqueue ${Failed.length} messages on ${env}: ${Failed[0]!.Message ?? Failed[0]!.Code}`);
  }
};

/** Runs one record's handling in its log context: the message, the request that caused it, and the ids it names. */
export const inRecordContext = <T>(record: SQSRecord, fields: LogContext, fn: () => Promise<T>): Promise<T> =>
  withContext({ messageId: record.messageId, requestId: requestIdOf(record), ...fields }, fn);

/**
 * An SQS consumer with partial batch failures: each record's body goes to `handle`; a message to be seen
 * again later has its visibility set to the delay and is reported failed, so SQS brings it back then. A
 * handler that throws leaves the message to come back after the queue's visibility timeout.
 */
export const consumer = <M>(
  env: UrlEnv,
  name: string,
  handle: (message: M, messageId: string) => Promise<Verdict>,
  describe: (message: M) => LogContext = () => ({}),
): ((event: SQSEvent, context?: Context) => Promise<SQSBatchResponse>) =>
  observed(async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const failures = await Promise.all(
      event.Records.map(async (record) => {
        return inRecordContext(record, {}, async () => {
          try {
            const message = JSON.parse(record.body) as M;
            addContext(describe(message));
            const verdict = await handle(message, record.messageId);
            if (verdict.ack) return undefined;
            await sqs().send(
              new ChangeMessageVisibilityCommand({ QueueUrl: urlOf(env), ReceiptHandle: record.receiptHandle, VisibilityTimeout: seconds(verdict.delayMs, MAX_VISIBILITY_SECONDS) }),
            );
          } catch (error) {
            log.error(`${name} message failed`, { error });
          }
          return { itemIdentifier: record.messageId };
        });
      }),
    );
    return { batchItemFailures: failures.filter((f) => f !== undefined) };
  });
