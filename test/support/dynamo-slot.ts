import { randomUUID } from 'node:crypto';
import { DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { DescribeStreamCommand, DynamoDBStreamsClient, GetRecordsCommand, GetShardIteratorCommand } from '@aws-sdk/client-dynamodb-streams';
import { startDynamoLocal, type DynamoLocal } from '../../infra/local/dynamodb';
import { ensureTable } from '../../infra/local/table';
import { tableSchema } from '../../shared/data/table';

/** What a client of the run's emulators is configured with besides its endpoint. */
export const LOCAL = { region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } };

/**
 * DynamoDB Local keeps every stream record it wrote, a deleted table's too, for the 24 hours DynamoDB keeps them,
 * and each request costs more the more it holds: measured on a fresh one, 2.0 ms of its CPU per request, and 8.3,
 * 16.3 and 24.9 ms after 10,000, 20,000 and 30,000 records of deleted tables. A start costs about 3 CPU s, what
 * a file of 1,500 requests loses to roughly 3,000 records held, so a slot starts a fresh one past this many.
 */
const RECORDS_BEFORE_RESTART = 2_000;

const PROBE_TABLE = 'slot-probe';

/**
 * How many stream records the database has written since it started: its sequence numbers count them across
 * every table, so the number of one record written now to a table of its own is the count.
 */
export const streamRecordsWritten = async (endpoint: string): Promise<number> => {
  const ddb = new DynamoDBClient({ endpoint, ...LOCAL });
  const streams = new DynamoDBStreamsClient({ endpoint, ...LOCAL });
  try {
    const StreamArn = await ensureTable(ddb, PROBE_TABLE);
    const { StreamDescription } = await streams.send(new DescribeStreamCommand({ StreamArn }));
    const ShardId = StreamDescription?.Shards?.at(-1)?.ShardId;
    if (!ShardId) throw new Error(`the probe table's stream has no shard: ${StreamArn}`);
    const { ShardIterator } = await streams.send(new GetShardIteratorCommand({ StreamArn, ShardId, ShardIteratorType: 'LATEST' }));
    // A new item each time: a write that changes nothing leaves no record.
    const key = { S: randomUUID() };
    await ddb.send(new PutItemCommand({ TableName: PROBE_TABLE, Item: { [tableSchema.partitionKey]: key, [tableSchema.sortKey]: key } }));
    const { Records = [] } = await streams.send(new GetRecordsCommand({ ShardIterator }));
    const sequence = Records.at(-1)?.dynamodb?.SequenceNumber;
    if (!sequence) throw new Error('the probe write left no stream record');
    return Number(sequence);
  } finally {
    ddb.destroy();
    streams.destroy();
  }
};

/**
 * A worker slot's in-memory DynamoDB Local, leased by the files that run there one after another. When the
 * last lease ends past `recordsBeforeRestart` records, a fresh one starts at once, while the next file's process
 * starts; the old one stops when that file asks for the slot, after the file before it has ended.
 */
export class DynamoSlot {
  private current: Promise<DynamoLocal> = startDynamoLocal();
  private retired?: Promise<DynamoLocal>;
  private leases = 0;

  constructor(private readonly recordsBeforeRestart = RECORDS_BEFORE_RESTART) {}

  async acquire(): Promise<string> {
    const retired = this.retired;
    this.retired = undefined;
    this.leases++;
    await (await retired?.catch(() => undefined))?.stop();
    return (await this.current).endpoint;
  }

  async release(): Promise<void> {
    this.leases = Math.max(0, this.leases - 1);
    if (this.leases > 0) return;
    const written = await streamRecordsWritten((await this.current).endpoint);
    if (this.leases > 0 || written < this.recordsBeforeRestart) return;
    this.retired = this.current;
    this.current = startDynamoLocal();
  }

  async stop(): Promise<void> {
    await Promise.all([this.current, this.retired].map(async (db) => (await db?.catch(() => undefined))?.stop()));
  }
}
