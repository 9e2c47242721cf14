import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBStreamsClient, GetRecordsCommand, GetShardIteratorCommand, DescribeStreamCommand } from '@aws-sdk/client-dynamodb-streams';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import initSqlJs, { type Database } from 'sql.js';
import { afterAll, describe, expect, it } from 'vitest';
import { startDynamoLocal } from '../../infra/local/dynamodb';
import { DATABASE_FILE, STREAM_INDEXES } from '../../infra/local/dynamodb-indexes';
import { ensureTable } from '../../infra/local/table';
import { LOCAL } from '../support/dynamo-slot';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Opens a copy of a database no DynamoDB Local has open; `write` keeps what `change` did to it. */
const onDatabase = async <T>(file: string, change: (db: Database) => T, write = false): Promise<T> => {
  const db = new (await initSqlJs()).Database(readFileSync(file));
  try {
    const result = change(db);
    if (write) writeFileSync(file, db.export());
    return result;
  } finally {
    db.close();
  }
};

const indexesOf = (file: string) =>
  onDatabase(file, (db) => db.exec("SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE 'parley_%'")[0]?.values.flat() ?? []);

const streamRecords = async (endpoint: string, streamArn: string) => {
  const streams = new DynamoDBStreamsClient({ endpoint, ...LOCAL });
  try {
    const shards = (await streams.send(new DescribeStreamCommand({ StreamArn: streamArn }))).StreamDescription?.Shards ?? [];
    const keys: string[] = [];
    for (const { ShardId } of shards) {
      const { ShardIterator } = await streams.send(
        new GetShardIteratorCommand({ StreamArn: streamArn, ShardId, ShardIteratorType: 'TRIM_HORIZON' }),
      );
      const { Records = [] } = await streams.send(new GetRecordsCommand({ ShardIterator }));
      keys.push(...Records.map((r) => String(r.dynamodb?.Keys?.pk?.S)));
    }
    return keys;
  } finally {
    streams.destroy();
  }
};

describe("DynamoDB Local's stream indexes", () => {
  it('a new database has them, and one kept from before gets them at its next start with its items and stream records', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parley-indexes-'));
    dirs.push(dir);
    const file = join(dir, DATABASE_FILE);

    const first = await startDynamoLocal({ dataDir: dir });
    const ddb = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: first.endpoint, ...LOCAL }));
    const streamArn = await ensureTable(ddb, 'kept');
    await ddb.send(new PutCommand({ TableName: 'kept', Item: { pk: 'KEPT', sk: 'S', n: 1 } }));
    ddb.destroy();
    await first.stop();
    expect((await indexesOf(file)).sort()).toEqual(Object.keys(STREAM_INDEXES).sort());

    // As a database `npm start` kept before the indexes were added.
    await onDatabase(
      file,
      (db) =>
        db.exec(
          Object.keys(STREAM_INDEXES)
            .map((name) => `DROP INDEX ${name};`)
            .join('\n'),
        ),
      true,
    );
    expect(await indexesOf(file)).toEqual([]);

    const again = await startDynamoLocal({ dataDir: dir });
    try {
      const reader = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: again.endpoint, ...LOCAL }));
      expect((await reader.send(new GetCommand({ TableName: 'kept', Key: { pk: 'KEPT', sk: 'S' } }))).Item).toEqual({
        pk: 'KEPT',
        sk: 'S',
        n: 1,
      });
      reader.destroy();
      expect(await streamRecords(again.endpoint, streamArn)).toEqual(['KEPT']);
    } finally {
      await again.stop();
    }
    expect((await indexesOf(file)).sort()).toEqual(Object.keys(STREAM_INDEXES).sort());
  });

  it("serve the lookups DynamoDB Local makes on every write and stream read (SQLite's plan for its queries)", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parley-indexes-'));
    dirs.push(dir);
    await (await startDynamoLocal({ dataDir: dir })).stop();
    const plan = (sql: string) =>
      onDatabase(join(dir, DATABASE_FILE), (db) =>
        (db.exec(`EXPLAIN QUERY PLAN ${sql}`)[0]?.values ?? []).map((row) => String(row.at(-1))).join('\n'),
      );
    // The stream description's first record, the shard's records from a sequence number, a table's stream, a stream's shards.
    expect(await plan('SELECT MIN(SequenceNumber) FROM us WHERE StreamID = ?')).toContain('parley_us_stream');
    expect(await plan('SELECT SequenceNumber FROM us WHERE ShardID = ? AND SequenceNumber >= ? ORDER BY SequenceNumber LIMIT 1')).toContain(
      'parley_us_shard',
    );
    expect(await plan('SELECT StreamID FROM sm WHERE TableName = ?')).toContain('parley_sm_table');
    expect(await plan('SELECT ShardID FROM ss WHERE StreamID = ?')).toContain('parley_ss_stream');
  });
});
