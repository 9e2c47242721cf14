import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { _Record } from '@aws-sdk/client-dynamodb-streams';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { StreamPoller } from '../../infra/local/stream-poller';
import { ensureTable } from '../../infra/local/table';
import { LOCAL } from '../support/dynamo-slot';
import { useTestStack } from '../support/stack';

const env = useTestStack({ gateway: false, workers: false });
const read: string[] = [];
let poller: StreamPoller;
let ddb: DynamoDBDocumentClient;

beforeAll(async () => {
  const { dynamoEndpoint, tableName } = env.stack;
  ddb = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: dynamoEndpoint, ...LOCAL }));
  const streamArn = await ensureTable(ddb, tableName);
  poller = new StreamPoller({
    endpoint: dynamoEndpoint,
    region: LOCAL.region,
    streamArn,
    onBatch: async (records: _Record[]) => {
      for (const r of records) read.push(String(r.dynamodb?.Keys?.pk?.S));
    },
  });
  poller.start();
});
afterAll(() => ddb?.destroy());

const put = (pk: string) => ddb.send(new PutCommand({ TableName: env.stack.tableName, Item: { pk, sk: 'S' } }));
const readWithin = (pk: string, ms: number) => vi.waitFor(() => expect(read).toContain(pk), { timeout: ms, interval: 20 });

describe('the local stream reader', () => {
  it('is not held by a wall clock set back, as a test that fakes Date does when it is done', async () => {
    await put('STREAM#before');
    await readWithin('STREAM#before', 5000);
    // Half an hour ahead (as test/support/rate-window.ts moves a test to a later window), then back.
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true, now: Date.now() + 30 * 60_000 });
    await put('STREAM#ahead');
    await readWithin('STREAM#ahead', 5000);
    // Idle, the reader reads every 250 ms: its last passes start by the faked clock.
    await new Promise((done) => setTimeout(done, 600));
    vi.useRealTimers();
    await put('STREAM#back');
    await readWithin('STREAM#back', 5000);
    const stopping = Date.now();
    await poller.stop();
    expect(Date.now() - stopping).toBeLessThan(5000);
  });
});
