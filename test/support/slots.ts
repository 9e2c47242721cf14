import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { DeleteTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteBucketCommand, DeleteObjectsCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { DeleteQueueCommand, SQSClient } from '@aws-sdk/client-sqs';
import { DynamoSlot, LOCAL } from './dynamo-slot';

/** Where the run's emulator broker answers; set by the global setup before the test workers fork. */
const BROKER_ENV = 'PARLEY_TEST_DYNAMO_BROKER';

interface Emulator {
  endpoint: string;
  stop(): Promise<void>;
}

/** The slot's SQS emulator (also the S3 stand-in's store), in a Node process of its own that ends with this one. */
const startSlotSqs = async (): Promise<Emulator> => {
  const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'sqs-slot.ts')], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = once(child, 'exit');
  const endpoint = await new Promise<string>((ready, fail) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) ready(out.trim());
    });
    void exited.then(() => fail(new Error(`the slot's SQS emulator exited: ${out}`)));
  });
  return {
    endpoint,
    stop: async () => {
      child.stdin.end();
      await exited;
    },
  };
};

/**
 * Global setup: for each worker slot, one in-memory DynamoDB Local and one SQS emulator, started when a file on
 * that slot first asks and kept warm for later files there. Each file makes its own table, queues and
 * buckets there under names of its own and drops them when done. Two files running at once never share one (a
 * burst in one would hold up the other's writes on DynamoDB Local's single SQLite lock), and a warm JVM serves a
 * file's first requests as fast as its last, where one started per file spent seconds of both cores starting
 * and compiling; an emulator started per file cost it about 0.6 CPU s (docs/contributing/testing.md). The
 * database starts afresh once the stream records it holds make it slow (`dynamo-slot.ts`).
 */
export default async function setup() {
  const sqsSlots = new Map<string, Promise<Emulator>>();
  const dynamoSlots = new Map<string, DynamoSlot>();
  const server = createServer((req, res) => {
    const query = new URL(req.url ?? '/', 'http://localhost').searchParams;
    const slot = query.get('slot') ?? '0';
    let answer: Promise<string>;
    if (query.get('service') === 'sqs') {
      if (!sqsSlots.has(slot)) sqsSlots.set(slot, startSlotSqs());
      answer = sqsSlots.get(slot)!.then((emulator) => emulator.endpoint);
    } else {
      if (!dynamoSlots.has(slot)) dynamoSlots.set(slot, new DynamoSlot());
      const dynamo = dynamoSlots.get(slot)!;
      answer = query.has('release') ? dynamo.release().then(() => '') : dynamo.acquire();
    }
    answer.then(
      (text) => res.end(text),
      (error: unknown) => res.writeHead(500).end(String(error)),
    );
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  process.env[BROKER_ENV] = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return async () => {
    server.close();
    await Promise.all([
      ...[...sqsSlots.values()].map(async (emulator) => (await emulator.catch(() => undefined))?.stop()),
      ...[...dynamoSlots.values()].map((dynamo) => dynamo.stop()),
    ]);
  };
}

/** Asks the run's emulator broker; undefined outside a vitest run with the broker. */
const askBroker = async (query: string): Promise<string | undefined> => {
  const broker = process.env[BROKER_ENV];
  if (!broker) return undefined;
  const res = await fetch(`${broker}/?${query}&slot=${process.env.VITEST_POOL_ID ?? '0'}`);
  if (!res.ok) throw new Error(`the emulator broker failed: ${await res.text()}`);
  return res.text();
};

/**
 * This worker slot's DynamoDB Local, and `drop(table)` to delete a table from it when its file is done;
 * undefined outside a vitest run with the broker (the caller then starts its own).
 */
export const slotDynamo = async (): Promise<{ endpoint: string; drop: (table: string) => Promise<void> } | undefined> => {
  const endpoint = await askBroker('service=dynamo');
  if (!endpoint) return undefined;
  const drop = async (table: string) => {
    const ddb = new DynamoDBClient({ endpoint, ...LOCAL });
    try {
      await ddb.send(new DeleteTableCommand({ TableName: table }));
    } finally {
      ddb.destroy();
      await askBroker('service=dynamo&release');
    }
  };
  return { endpoint, drop };
};

/** Empties a bucket and deletes it. */
const dropBucket = async (s3: S3Client, bucket: string) => {
  for (;;) {
    const { Contents = [] } = await s3.send(new ListObjectsV2Command({ Bucket: bucket }));
    if (Contents.length === 0) break;
    await s3.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: Contents.map(({ Key }) => ({ Key })) } }));
  }
  await s3.send(new DeleteBucketCommand({ Bucket: bucket })).catch((error: unknown) => {
    // An upload begun and never completed keeps a bucket, as in S3: the emulator keeps it, under the file's own name.
    if (!(error instanceof Error && error.name === 'BucketNotEmpty')) throw error;
  });
};

/**
 * This worker slot's SQS emulator, and `drop` to delete a file's queues and buckets from it when the file is
 * done; undefined outside a vitest run with the broker (the caller then starts its own).
 */
export const slotSqs = async (): Promise<
  | { endpoint: string; drop: (stack: { queues: Record<string, { url: string; dlqUrl: string }> }, buckets: string[]) => Promise<void> }
  | undefined
> => {
  const endpoint = await askBroker('service=sqs');
  if (!endpoint) return undefined;
  const drop = async (stack: { queues: Record<string, { url: string; dlqUrl: string }> }, buckets: string[]) => {
    const sqs = new SQSClient({ endpoint, ...LOCAL });
    const s3 = new S3Client({ endpoint, forcePathStyle: true, ...LOCAL });
    try {
      const urls = Object.values(stack.queues).flatMap((q) => [q.url, q.dlqUrl]);
      await Promise.all(urls.map((QueueUrl) => sqs.send(new DeleteQueueCommand({ QueueUrl }))));
      for (const bucket of buckets) await dropBucket(s3, bucket);
    } finally {
      sqs.destroy();
      s3.destroy();
    }
  };
  return { endpoint, drop };
};
