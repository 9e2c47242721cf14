import { ChangeMessageVisibilityCommand, SendMessageBatchCommand } from '@aws-sdk/client-sqs';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { config, type Config } from './config';
import { log } from './log';
import { sqs } from './aws/sqs';
import { withContext, type LogContext } from './observability/context';
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

/** Sends JSON messages to the queue named by `env`, in batches sent in parallel, each visible after `delayMs` (≤ 900 s). */
export const sendMessages = async (env: UrlEnv, bodies: readonly object[], delayMs = 0): Promise<void> => {
  const chunks = Array.from({ length: Math.ceil(bodies.length / BATCH) }, (_, i) => bodies.slice(i * BATCH, (i + 1) * BATCH));
  await Promise.all(
    chunks.map(async (chunk) => {
      const { Failed = [] } = await sqs().send(
        new SendMessageBatchCommand({
          QueueUrl: urlOf(env),
          Entries: chunk.map((body, j) => ({ Id: String(j), MessageBody: JSON.stringify(body), DelaySeconds: seconds(delayMs, MAX_DELAY_SECONDS) })),
        }),
      );
      if (Failed.length > 0) throw new Error(`failed to enqueue ${Failed.length} messages on ${env}: ${Failed[0]!.Message ?? Failed[0]!.Code}`);
    }),
  );
};

/** Runs one record's handling in its log context: the message, the request that caused it, and the ids it names. */
export const inRecordContext = <T>(record: SQSRecord, fields: LogContext, fn: () => Promise<T>): Promise<T> =>
  withContext({ messageId: record.messageId, requestId: requestIdOf(record), ...fields }, fn);

/**
 * An SQS consumer with partial batch failures whose records are handled in groups: the records whose
 * messages `groupOf` puts together go to `handle` at once (in one log context, the first record's), each
 * group in parallel. A message to be seen again later has its visibility set to the delay and is reported
 * failed, so SQS brings it back then. A group whose handling throws (or a body that is not JSON) leaves
 * its messages to come back after the queue's visibility timeout.
 */
export const groupedConsumer = <M>(
  env: UrlEnv,
  name: string,
  groupOf: (message: M, messageId: string) => string,
  handle: (messages: M[], messageIds: string[]) => Promise<Verdict[]>,
  describe: (message: M) => LogContext = () => ({}),
): ((event: SQSEvent, context?: Context) => Promise<SQSBatchResponse>) =>
  observed(async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const groups = new Map<string, { records: SQSRecord[]; messages: M[] }>();
    const failed: SQSRecord[] = [];
    for (const record of event.Records) {
      try {
        const message = JSON.parse(record.body) as M;
        const key = groupOf(message, record.messageId);
        const group = groups.get(key) ?? { records: [], messages: [] };
        group.records.push(record);
        group.messages.push(message);
        groups.set(key, group);
      } catch (error) {
        await inRecordContext(record, {}, async () => log.error(`${name} message failed`, { error }));
        failed.push(record);
      }
    }
    const later = await Promise.all(
      [...groups.values()].map(({ records, messages }) =>
        inRecordContext(records[0]!, describe(messages[0]!), async () => {
          try {
            const verdicts = await handle(messages, records.map((r) => r.messageId));
            const delayed = records.flatMap((record, i) => (verdicts[i]?.ack === false ? [{ record, delayMs: verdicts[i].delayMs }] : []));
            await Promise.all(
              delayed.map(({ record, delayMs }) =>
                sqs().send(new ChangeMessageVisibilityCommand({ QueueUrl: urlOf(env), ReceiptHandle: record.receiptHandle, VisibilityTimeout: seconds(delayMs, MAX_VISIBILITY_SECONDS) })),
              ),
            );
            return records.filter((_, i) => verdicts[i]?.ack !== true);
          } catch (error) {
            log.error(`${name} message failed`, { error });
            return records;
          }
        }),
      ),
    );
    return { batchItemFailures: [...failed, ...later.flat()].map((r) => ({ itemIdentifier: r.messageId })) };
  });

/** A consumer that handles each message on its own (see `groupedConsumer`). */
export const consumer = <M>(
  env: UrlEnv,
  name: string,
  handle: (message: M, messageId: string) => Promise<Verdict>,
  describe: (message: M) => LogContext = () => ({}),
): ((event: SQSEvent, context?: Context) => Promise<SQSBatchResponse>) =>
  groupedConsumer(env, name, (_m, messageId) => messageId, ([message], [messageId]) => Promise.all([handle(message!, messageId!)]), describe);
