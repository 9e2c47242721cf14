import { createHash, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SQSClient } from '@aws-sdk/client-sqs';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { wiring } from '../../functions/wiring';
import { EVENT_ITEM_TYPE } from '../../shared/data/table';
import { OUTBOX_DETAIL_TYPE, OUTBOX_SOURCE } from '../../shared/events/from-bus';
import { installLocalBus } from './bus';
import { startDynamoLocal } from './dynamodb';
import { busEvent, route } from './event-router';
import { startGateway } from './gateway';
import { onInvoke, preload } from './lambda';
import { QueuePoller } from './queue-poller';
import { startSchedules } from './scheduler';
import { accountKey, startS3Local, type ObjectCreated } from './s3';
import { sessionPrincipal } from './aws-guard';
import { startDownloadsCdn } from './cloudfront';
import { installLocalSsm } from './ssm';
import { ensureDownloadKey } from '../../shared/files/download-key';
import { ensureQueue, startSqsLocal } from './sqs';
import { StreamPoller } from './stream-poller';
import { ensureTable } from './table';
import { withoutSdkLogging } from '../../shared/aws/plugins';

export interface StackOptions {
  /** Persist DynamoDB data (and the stream checkpoint) here; in memory when absent. */
  dataDir?: string;
  /** HTTP port for the gateway; 0 picks a free one. */
  port?: number;
  /** Use an already running DynamoDB Local / SQS instead of starting one. */
  dynamoEndpoint?: string;
  sqsEndpoint?: string;
  tableName?: string;
  /** Names each queue `<prefix><its wiring name>`: stacks that share one SQS emulator keep their messages apart. */
  queuePrefix?: string;
  /** Extra environment for the functions (e.g. WEBHOOK_ALLOW_PRIVATE_TARGETS). */
  env?: Record<string, string>;
  /** Run the gateway, and the stream/queue pollers and schedules (default both). */
  gateway?: boolean;
  workers?: boolean;
  /** Run every rate schedule this often instead of at its deployed rate. */
  scheduleSeconds?: number;
  /**
   * Import every function's handler (the routes' and the workers') before the stack answers (default), so no
   * first request or event pays for it and a handler that fails to load stops the start. Off, a handler is
   * imported at its first invocation, as Lambda does at a cold start: a test file then loads only the
   * functions it runs. `workers`: the workers' before, each route's at its first request.
   */
  preloadFunctions?: boolean | 'workers';
  /**
   * The private key (PEM) that signs download URLs, kept where none is kept yet; without it the start makes one,
   * as the deployment does. The tests hand every stack of a run the one key their global setup made.
   */
  downloadKey?: string;
}

export interface LocalStack {
  baseUrl: string;
  tableName: string;
  dynamoEndpoint: string;
  sqsEndpoint: string;
  /** The S3 stand-in (presigned POSTs and GETs are checked there). */
  s3Endpoint: string;
  /** Runs the buckets' lifecycle rules as of `at` (the stand-in's timer runs them every minute): the `bucket/key`s expired. */
  expireObjects(at: Date): Promise<string[]>;
  queues: Record<string, { url: string; arn: string; dlqUrl: string }>;
  /** What each queue's name starts with before its wiring name (`queuePrefix`; empty by default). */
  queuePrefix: string;
  stop(): Promise<void>;
}

const REGION = 'us-east-1';

/** The event pipe's filter: only inserted outbox items go to the bus. */
const isOutboxInsert = (record: { eventName?: string; dynamodb?: { NewImage?: Record<string, AttributeValue> } }) =>
  record.eventName === 'INSERT' && record.dynamodb?.NewImage?.type?.S === EVENT_ITEM_TYPE;

/** The `detail` of S3's EventBridge notification of a new object. */
const s3Detail = (c: ObjectCreated) => ({
  version: '0',
  bucket: { name: c.bucket },
  object: { key: c.key, size: c.size, etag: c.etag, sequencer: Date.now().toString(16).toUpperCase() },
  'request-id': randomUUID(),
  requester: '000000000000',
  'source-ip-address': '127.0.0.1',
  reason: c.reason,
});

/**
 * Brings up the whole system on loopback: DynamoDB Local, the SQS emulator, the event pipe and router,
 * the queue pollers, the schedules and the HTTP gateway, all running the wiring's real handlers.
 */
export const startStack = async (opts: StackOptions = {}): Promise<LocalStack> => {
  const stops: (() => Promise<void> | void)[] = [];
  const stop = async () => {
    for (const s of stops.reverse()) await s();
  };
  const owned = async <T extends { stop(): Promise<void> }>(started: Promise<T>): Promise<T> => {
    const service = await started;
    stops.push(() => service.stop());
    return service;
  };
  try {
    installLocalBus(wiring);
    process.env.AWS_ACCESS_KEY_ID ??= 'local';
    process.env.AWS_SECRET_ACCESS_KEY ??= 'local';
    process.env.AWS_REGION ??= REGION;
    // Local runs use the machine's Node; the deployed functions run nodejs22.x.
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

    const dynamoEndpoint: string =
      opts.dynamoEndpoint ??
      (await owned(startDynamoLocal({ dataDir: opts.dataDir ? join(opts.dataDir, 'dynamodb') : undefined }))).endpoint;
    const sqsEndpoint: string = opts.sqsEndpoint ?? (await owned(startSqsLocal())).endpoint;

    const tableName = opts.tableName ?? 'parley';
    const ddb = new DynamoDBClient({ endpoint: dynamoEndpoint, region: REGION });
    const streamArn = await ensureTable(ddb, tableName);
    ddb.destroy();

    // A long poll open per queue, a delete per running invocation, and some to spare for the setup's calls.
    const invocationSlots = wiring.queues.reduce((n, q) => n + q.consumer.maxConcurrency, 0);
    const sqs = withoutSdkLogging(
      new SQSClient({
        endpoint: sqsEndpoint,
        region: REGION,
        requestHandler: { httpAgent: { keepAlive: true, maxSockets: wiring.queues.length + invocationSlots + 10 } },
      }),
    );
    stops.push(() => sqs.destroy());
    const queues: LocalStack['queues'] = {};
    for (const spec of wiring.queues) {
      queues[spec.name] = await ensureQueue(sqs, spec, opts.queuePrefix);
      process.env[spec.urlEnv] = queues[spec.name]!.url;
      process.env[spec.dlq.urlEnv] = queues[spec.name]!.dlqUrl;
    }
    for (const bucket of wiring.buckets) process.env[bucket.nameEnv] ??= `parley-${bucket.name}`;
    // A bucket's notifications reach the rules that name it, as S3's reach the default bus.
    const bucketRules = wiring.rules
      .filter((r) => r.bucket)
      .map((r) => {
        const spec = wiring.buckets.find((b) => b.name === r.bucket)!;
        return { ...r, pattern: { ...r.pattern, detail: { ...r.pattern.detail, bucket: { name: [process.env[spec.nameEnv]!] } } } };
      });
    const s3 = await owned(
      startS3Local({
        storeEndpoint: sqsEndpoint,
        buckets: wiring.buckets.map((b) => process.env[b.nameEnv]!),
        signers: {
          region: REGION,
          principals: (id) =>
            sessionPrincipal(wiring, id) ?? accountKey(process.env.AWS_ACCESS_KEY_ID!, process.env.AWS_SECRET_ACCESS_KEY!)(id),
        },
        lifecycle: wiring.buckets.flatMap((b) => (b.expire ?? []).map((rule) => ({ ...rule, bucket: process.env[b.nameEnv]! }))),
        dataDir: opts.dataDir ? join(opts.dataDir, 's3') : undefined,
        onObjectCreated:
          opts.workers === false
            ? undefined
            : (created: ObjectCreated) => route(bucketRules, busEvent('aws.s3', 'Object Created', s3Detail(created))),
      }),
    );
    // Each bucket's downloads distribution, with its key group; its key is made as the deployment makes it, at the end.
    installLocalSsm(opts.dataDir ? join(opts.dataDir, 'parameters.json') : undefined);
    const downloadKeys: { parameter: string; keyPairId: string; trusted: Map<string, string> }[] = [];
    for (const bucket of wiring.buckets) {
      if (!bucket.downloads) continue;
      process.env[bucket.downloads.keyParameterEnv] ??= `/parley/local/${bucket.name}/download-signing-key`;
      const parameter = process.env[bucket.downloads.keyParameterEnv]!;
      const trusted = new Map<string, string>();
      const cdn = await owned(
        startDownloadsCdn({
          origin: s3.endpoint,
          bucket: process.env[bucket.nameEnv]!,
          trustedKeys: trusted,
          headers: bucket.downloads.headers,
        }),
      );
      // CloudFront names each public key with an id of its own: here, one derived from the key's parameter.
      const keyPairId = `K${createHash('sha256').update(parameter).digest('hex').slice(0, 13).toUpperCase()}`;
      process.env[bucket.downloads.urlEnv] = cdn.endpoint;
      process.env[bucket.downloads.keyPairIdEnv] = keyPairId;
      downloadKeys.push({ parameter, keyPairId, trusted });
    }
    Object.assign(
      process.env,
      { TABLE_NAME: tableName, DYNAMODB_ENDPOINT: dynamoEndpoint, SQS_ENDPOINT: sqsEndpoint, S3_ENDPOINT: s3.endpoint },
      opts.env,
    );

    // The gateway first: it completes the functions' environment (the socket's URL and management endpoint, on
    // the port it binds), which a function reads once, and the workers may run one as soon as they start.
    let baseUrl = '';
    if (opts.gateway !== false) {
      if (opts.preloadFunctions === undefined || opts.preloadFunctions === true)
        await preload([...wiring.routes, wiring.fallback, ...Object.values(wiring.socket ?? {})]);
      const gateway = await startGateway(wiring, opts.port ?? 0);
      stops.push(async () => {
        await gateway.close();
        await new Promise<void>((r) => {
          gateway.server.close(() => r());
          gateway.server.closeAllConnections();
        });
      });
      baseUrl = gateway.url;
    }
    if (opts.workers !== false) {
      if (opts.preloadFunctions !== false)
        await preload([
          ...wiring.rules.map((r) => r.target),
          ...wiring.queues.map((q) => q.consumer),
          ...wiring.schedules.map((s) => s.target),
        ]);
      const poller = new StreamPoller({
        endpoint: dynamoEndpoint,
        region: REGION,
        streamArn,
        checkpointFile: opts.dataDir ? join(opts.dataDir, 'stream-checkpoint.json') : undefined,
        onBatch: async (records) => {
          await Promise.all(records.filter(isOutboxInsert).map((r) => route(wiring.rules, busEvent(OUTBOX_SOURCE, OUTBOX_DETAIL_TYPE, r))));
        },
      });
      poller.start();
      stops.push(() => poller.stop());
      // A function that ran may have written: the reader reads now instead of at the end of its idle wait.
      stops.push(onInvoke(() => () => poller.wake()));
      for (const spec of wiring.queues) {
        const q = queues[spec.name]!;
        const queuePoller = new QueuePoller(sqs, spec, q.url, q.arn);
        queuePoller.start();
        stops.push(() => queuePoller.stop());
      }
      stops.push(startSchedules(wiring.schedules, opts.scheduleSeconds));
    }

    // Last: the download keys, which the stand-in CDN trusts from now on.
    for (const { parameter, keyPairId, trusted } of downloadKeys)
      trusted.set(keyPairId, (await ensureDownloadKey(parameter, opts.downloadKey)).publicKey);
    return {
      baseUrl,
      tableName,
      dynamoEndpoint,
      sqsEndpoint,
      s3Endpoint: s3.endpoint,
      expireObjects: s3.expireObjects,
      queues,
      queuePrefix: opts.queuePrefix ?? '',
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
};
