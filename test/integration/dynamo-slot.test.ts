import { BatchWriteItemCommand, DeleteTableCommand, DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureTable } from '../../infra/local/table';
import { tableSchema } from '../../shared/data/table';
import { DynamoSlot, LOCAL, streamRecordsWritten } from '../support/dynamo-slot';

/** Makes a table, writes `items` to it and deletes it: each item a stream record that outlives the table. */
const writeAndDrop = async (endpoint: string, table: string, items: number) => {
  const ddb = new DynamoDBClient({ endpoint, ...LOCAL });
  try {
    await ensureTable(ddb, table);
    for (let start = 0; start < items; start += 25) {
      const puts = Array.from({ length: Math.min(25, items - start) }, (_, i) => {
        const key = { S: `item-${start + i}` };
        return { PutRequest: { Item: { [tableSchema.partitionKey]: key, [tableSchema.sortKey]: key } } };
      });
      await ddb.send(new BatchWriteItemCommand({ RequestItems: { [table]: puts } }));
    }
    await ddb.send(new DeleteTableCommand({ TableName: table }));
  } finally {
    ddb.destroy();
  }
};

const tables = async (endpoint: string) => {
  const ddb = new DynamoDBClient({ endpoint, ...LOCAL, maxAttempts: 1 });
  try {
    return (await ddb.send(new ListTablesCommand({}))).TableNames;
  } finally {
    ddb.destroy();
  }
};

describe("a worker slot's DynamoDB Local", () => {
  const slot = new DynamoSlot(100);
  afterAll(() => slot.stop());

  it("counts the stream records the database holds, a deleted table's among them", async () => {
    const endpoint = await slot.acquire();
    const before = await streamRecordsWritten(endpoint);
    await writeAndDrop(endpoint, 'counted', 30);
    // The 30 items and the count's own probe write.
    expect(await streamRecordsWritten(endpoint)).toBeGreaterThanOrEqual(before + 31);
    await slot.release();
  });

  it('stays warm under the limit, and starts afresh when the last lease ends past it, never while one is held', async () => {
    const first = await slot.acquire();
    await slot.release();
    expect(await slot.acquire()).toBe(first);

    const second = await slot.acquire();
    expect(second).toBe(first);
    await writeAndDrop(first, 'heavy', 120);
    await slot.release();
    // The other lease still holds the database past the limit: it is the one a file gets.
    expect(await slot.acquire()).toBe(first);
    await slot.release();
    await slot.release();

    const fresh = await slot.acquire();
    expect(fresh).not.toBe(first);
    expect(await tables(fresh)).toEqual([]);
    await expect(tables(first)).rejects.toThrow();
    await slot.release();
  });
});
