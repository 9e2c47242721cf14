import { createServer } from 'node:http';
import { DeleteTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { startDynamoLocal, type DynamoLocal } from '../../infra/local/dynamodb';

/** Where the run's DynamoDB Local broker answers; set by the global setup before the test workers fork. */
const BROKER_ENV = 'PARLEY_TEST_DYNAMO_BROKER';

/**
 * Global setup: one in-memory DynamoDB Local per worker slot, started when a file on that slot first asks
 * and kept warm for every later file there; each file makes its own table and drops it when done. Two
 * files running at once never share one (a burst in one would hold up the other's writes on its single
 * SQLite lock), and a warm JVM serves a file's first requests as fast as its last, where one started per
 * file spent seconds of both cores starting and compiling.
 */
export default async function setup() {
  const slots = new Map<string, Promise<DynamoLocal>>();
  const server = createServer((req, res) => {
    const slot = new URL(req.url ?? '/', 'http://localhost').searchParams.get('slot') ?? '0';
    if (!slots.has(slot)) slots.set(slot, startDynamoLocal());
    slots.get(slot)!.then(
      (db) => res.end(db.endpoint),
      (error: unknown) => res.writeHead(500).end(String(error)),
    );
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  process.env[BROKER_ENV] = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return async () => {
    server.close();
    await Promise.all([...slots.values()].map(async (db) => (await db.catch(() => undefined))?.stop()));
  };
}

/**
 * This worker slot's DynamoDB Local, and `drop(table)` to delete a table from it when its file is done;
 * undefined outside a vitest run with the broker (the caller then starts its own).
 */
export const slotDynamo = async (): Promise<{ endpoint: string; drop: (table: string) => Promise<void> } | undefined> => {
  const broker = process.env[BROKER_ENV];
  if (!broker) return undefined;
  const res = await fetch(`${broker}/?slot=${process.env.VITEST_POOL_ID ?? '0'}`);
  if (!res.ok) throw new Error(`the DynamoDB Local broker failed: ${await res.text()}`);
  const endpoint = await res.text();
  const drop = async (table: string) => {
    const ddb = new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
    try {
      await ddb.send(new DeleteTableCommand({ TableName: table }));
    } finally {
      ddb.destroy();
    }
  };
  return { endpoint, drop };
};
