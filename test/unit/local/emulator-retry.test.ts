import { createServer, type Server } from 'node:http';
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { retryLockTimeouts } from '../../../infra/local/emulator-retry';
import { isContention } from '../../../shared/data/retry';
import { withDeadline } from '../../../shared/observability/deadline';

const LOCK_TIMEOUT = 'This action timed out because it too long waiting for a lock. This request will succeed in actual DynamoDB API';

const servers: Server[] = [];
afterEach(() => Promise.all(servers.splice(0).map((s) => new Promise((closed) => s.close(closed)))));

/**
 * A DynamoDB endpoint that answers its first `failures` requests with a 500 (DynamoDB Local's lock timeout
 * unless told otherwise), then an empty item; and a real SDK client, with the plugin, that calls it.
 */
const endpoint = async (failures: number, message = LOCK_TIMEOUT) => {
  let requests = 0;
  const server = createServer((req, res) => {
    req.resume().on('end', () => {
      const failing = requests++ < failures;
      res.writeHead(failing ? 500 : 200, { 'content-type': 'application/x-amz-json-1.0' });
      res.end(JSON.stringify(failing ? { __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError', message } : {}));
    });
  });
  servers.push(server);
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const client = new DynamoDBClient({
    endpoint: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  client.middlewareStack.use(retryLockTimeouts);
  const get = () => client.send(new GetItemCommand({ TableName: 't', Key: { pk: { S: 'a' } } }));
  return { get, requests: () => requests, sdkAttempts: await client.config.maxAttempts() };
};

/** Runs `fn` as an invocation with `ms` left before its timeout. */
const withTimeLeft = <T>(ms: number, fn: () => Promise<T>) => withDeadline({ getRemainingTimeInMillis: () => ms }, fn);

describe("DynamoDB Local's lock timeouts", () => {
  it("are run again, by the SDK and then beyond the SDK's attempts, until the request goes through", async () => {
    const db = await endpoint(5);
    expect(db.sdkAttempts).toBeLessThan(5);
    await expect(db.get()).resolves.toMatchObject({ $metadata: { httpStatusCode: 200 } });
    expect(db.requests()).toBe(6);
  });

  it("give up after six more rounds of the SDK's attempts as a throttled request, with the emulator message", async () => {
    const db = await endpoint(1000);
    const error = await db.get().catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ThrottlingException', message: expect.stringMatching(/waiting for a lock/) });
    expect(db.requests()).toBe(db.sdkAttempts * 7);
  }, 60_000);

  it('start no attempt, the SDK retry included, unless a whole lock wait fits before the answer reserve: 429, never a timeout', async () => {
    const db = await endpoint(2);
    const error = await withTimeLeft(16_000, db.get).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ThrottlingException' });
    expect(isContention(error)).toBe(true);
    expect(db.requests()).toBe(1);

    const roomy = await endpoint(2);
    await expect(withTimeLeft(18_000, roomy.get)).resolves.toMatchObject({ $metadata: { httpStatusCode: 200 } });
    expect(roomy.requests()).toBe(3);
    expect(roomy.sdkAttempts).toBeGreaterThan(2);
  });

  it('leave every other error alone', async () => {
    const db = await endpoint(1000, 'something else broke');
    await expect(withTimeLeft(1000, db.get)).rejects.toMatchObject({ name: 'InternalServerError', message: 'something else broke' });
    expect(db.requests()).toBe(db.sdkAttempts);
  });
});
