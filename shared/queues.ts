import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import * as z from 'zod';
import { config, type Config } from './config';
import { log } from './log';
import { sqs } from './aws/sqs';
import { withContext, type LogContext } from './observability/context';
import { requestIdOf } from './observability/correlation';
import { isContention } from './data/retry';
import type { Unit } from './data/unit';
import { observed } from './observability/invocation';
import type { Verdict } from './domain/verdict';
import { tenantField } from './domain/auth/tenant';

/** SQS limits: DelaySeconds ≤ 900; a visibility timeout ≤ 12 h from receipt; 10 entries per batch. */
export const MAX_DELAY_SECONDS = 900;
/** A longer wait wakes its message early; its worker finds it not yet due and defers it again. */
const MAX_VISIBILITY_SECONDS = 11 * 3600;
const BATCH = 10;

type UrlEnv = Extract<keyof Config, `${string}_QUEUE_URL`>;

/** A queue: the setting that holds its URL, its name in log lines, and the schema every message on it is parsed with. */
export interface Queue<M> {
  env: UrlEnv;
  name: string;
  message: z.ZodType<M>;
}

/**
 * Every queue message names the tenant whose records it refers to as `tenant`. One sent before the field had
 * that name carries it as `workspaceId`, and is read the same (for as long as such a message can still be on
 * a queue: 14 days of SQS retention after the deploy).
 */
const legacyTenant = (body: unknown): unknown => {
  if (body === null || typeof body !== 'object' || 'tenant' in body || !('workspaceId' in body)) return body;
  const { workspaceId, ...rest } = body as Record<string, unknown>;
  return { ...rest, tenant: workspaceId };
};

/** The schema of a queue's messages: `schema`, read after renaming a legacy `workspaceId` to `tenant`. */
export const queueMessage = <S extends z.ZodType<{ tenant: unknown }>>(schema: S) => z.preprocess(legacyTenant, schema);

/** A message's `tenant` field. */
export const messageTenant = { tenant: tenantField };

const urlOf = (env: UrlEnv): string => {
  const url = config()[env];
  if (!url) throw new Error(`${env} is not configured`);
  return url as string;
};

/**
 * SQS counts delays and visibility timeouts in whole seconds. Every delay is rounded up, so a message never
 * comes back before it is due, and a delay of whole seconds (the webhook schedule's 1/2/4/8 s) is kept exactly.
 */
export const toWholeSecondsRoundingUp = (ms: number): number => (ms > 0 ? Math.max(1, Math.ceil(ms / 1000)) : 0);

/**
 * Sends messages to `queue`, in batches sent in parallel, each visible after `delayMs` (rounded up; ≤ 900 s).
 * They go out once `unit`'s writes are committed (`afterCommit`: later in the held attempt of an idempotent
 * request), so a worker never receives a message about something not yet written.
 */
export const sendMessages = <M>(unit: Unit, queue: Queue<M>, bodies: readonly M[], delayMs = 0): Promise<void> =>
  unit.afterCommit(() => sendNow(queue, bodies, delayMs));

const sendNow = async <M>(queue: Queue<M>, bodies: readonly M[], delayMs: number): Promise<void> => {
  const DelaySeconds = Math.min(MAX_DELAY_SECONDS, toWholeSecondsRoundingUp(delayMs));
  const chunks = Array.from({ length: Math.ceil(bodies.length / BATCH) }, (_, i) => bodies.slice(i * BATCH, (i + 1) * BATCH));
  const { sdk, client } = await sqs();
  await Promise.all(
    chunks.map(async (chunk) => {
      const { Failed = [] } = await client.send(
        new sdk.SendMessageBatchCommand({
          QueueUrl: urlOf(queue.env),
          Entries: chunk.map((body, j) => ({ Id: String(j), MessageBody: JSON.stringify(body), DelaySeconds })),
        }),
      );
      if (Failed.length > 0)
        throw new Error(`failed to enqueue ${Failed.length} messages on ${queue.env}: ${Failed[0]!.Message ?? Failed[0]!.Code}`);
    }),
  );
};

/** Runs one record's handling in its log context: the message, the request that caused it, and the ids it names. */
const inRecordContext = <T>(record: SQSRecord, fields: LogContext, fn: () => Promise<T>): Promise<T> =>
  withContext({ messageId: record.messageId, requestId: requestIdOf(record), ...fields }, fn);

/**
 * The record's message parsed with the queue's schema, or undefined after logging why not. The log names
 * where the message is wrong, never what it holds.
 */
const parse = async <M>(queue: Queue<M>, record: SQSRecord): Promise<M | undefined> => {
  let body: unknown;
  try {
    body = JSON.parse(record.body);
  } catch {
    await inRecordContext(record, {}, async () => log.error(`${queue.name} message is not JSON`));
    return undefined;
  }
  const parsed = queue.message.safeParse(body);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((i) => ({ path: i.path.join('.'), code: i.code }));
  await inRecordContext(record, {}, async () => log.error(`${queue.name} message does not match its schema`, { issues }));
  return undefined;
};

/** Makes a record reappear after `delayMs`, rounded up to whole seconds (capped: see MAX_VISIBILITY_SECONDS). */
const defer = async (queue: Queue<unknown>, record: SQSRecord, delayMs: number) => {
  const { sdk, client } = await sqs();
  return client.send(
    new sdk.ChangeMessageVisibilityCommand({
      QueueUrl: urlOf(queue.env),
      ReceiptHandle: record.receiptHandle,
      VisibilityTimeout: Math.min(MAX_VISIBILITY_SECONDS, toWholeSecondsRoundingUp(delayMs)),
    }),
  );
};

/** The contention delay's ceiling: under the shortest visibility timeout of the queues (90 s, channels). */
const MAX_CONTENTION_DELAY_MS = 60_000;

/**
 * How long a group that met contention (a transaction that kept losing to others on a hot item) waits
 * before it is tried again, where the queue's visibility timeout would hold it for minutes. Nothing it lost
 * was written. The wait doubles with each receive of its message (1 s, 2 s, 4 s … 60 s) and is jittered in
 * its upper half, so the losers do not meet again and a message that keeps losing spends its
 * maxReceiveCount over tens of minutes, not seconds, before SQS dead-letters it.
 */
const contentionDelayMs = (records: SQSRecord[]): number => {
  const receives = Math.max(...records.map((r) => Number(r.attributes?.ApproximateReceiveCount) || 1));
  const ceiling = Math.min(MAX_CONTENTION_DELAY_MS, 1000 * 2 ** Math.min(receives - 1, 16));
  return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
};

/** Brings back after `contentionDelayMs` the records of a group whose handling met contention; they are reported failed. */
const retrySoon = async (queue: Queue<unknown>, records: SQSRecord[]): Promise<SQSRecord[]> => {
  const delayMs = contentionDelayMs(records);
  log.warn(`${queue.name} message met contention; it is tried again shortly`, { delayMs });
  try {
    await Promise.all(records.map((record) => defer(queue, record, delayMs)));
  } catch (error) {
    log.error(`${queue.name} message could not be brought back early`, { error });
  }
  return records;
};

/**
 * An SQS consumer with partial batch failures whose records are handled in groups: the records whose
 * messages `groupOf` puts together go to `handle` at once (in one log context, the first record's), each
 * group in parallel. A message to be seen again later has its visibility set to the delay and is reported
 * failed, so SQS brings it back then. A group whose handling throws contention comes back after
 * `contentionDelayMs`; one that throws anything else leaves its messages to come back after the queue's
 * visibility timeout; a message that fails its schema is reported failed alone, so after
 * maxReceiveCount it lands in the DLQ. `afterBatch` runs once every group is handled, before the
 * invocation returns (work gathered over the batch; it must not throw).
 */
export const groupedConsumer = <M>(
  queue: Queue<M>,
  groupOf: (message: M, messageId: string) => string,
  handle: (messages: M[], messageIds: string[]) => Promise<Verdict[]>,
  describe: (message: M) => LogContext,
  afterBatch?: () => Promise<void>,
): ((event: SQSEvent, context?: Context) => Promise<SQSBatchResponse>) =>
  observed(async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const groups = new Map<string, { records: SQSRecord[]; messages: M[] }>();
    const failed: SQSRecord[] = [];
    for (const record of event.Records) {
      const message = await parse(queue, record);
      if (message === undefined) {
        failed.push(record);
        continue;
      }
      const key = groupOf(message, record.messageId);
      const group = groups.get(key) ?? { records: [], messages: [] };
      group.records.push(record);
      group.messages.push(message);
      groups.set(key, group);
    }
    const unfinished = await Promise.all(
      [...groups.values()].map(({ records, messages }) =>
        inRecordContext(records[0]!, describe(messages[0]!), async () => {
          try {
            const verdicts = await handle(
              messages,
              records.map((r) => r.messageId),
            );
            await Promise.all(
              records.map((record, i) => (verdicts[i]?.ack === false ? defer(queue, record, verdicts[i].delayMs) : undefined)),
            );
            return records.filter((_, i) => verdicts[i]?.ack !== true);
          } catch (error) {
            if (isContention(error)) return retrySoon(queue, records);
            log.error(`${queue.name} message failed`, { error });
            return records;
          }
        }),
      ),
    );
    await afterBatch?.();
    return { batchItemFailures: [...failed, ...unfinished.flat()].map((r) => ({ itemIdentifier: r.messageId })) };
  });

/** A consumer that handles each message on its own, in its own log context (see `groupedConsumer`). */
export const consumer = <M>(
  queue: Queue<M>,
  handle: (message: M, messageId: string) => Promise<Verdict>,
  describe: (message: M) => LogContext,
  afterBatch?: () => Promise<void>,
): ((event: SQSEvent, context?: Context) => Promise<SQSBatchResponse>) =>
  groupedConsumer(
    queue,
    (_m, messageId) => messageId,
    ([message], [messageId]) => Promise.all([handle(message!, messageId!)]),
    describe,
    afterBatch,
  );
