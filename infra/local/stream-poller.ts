import { existsSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  ExpiredIteratorException,
  TrimmedDataAccessException,
  GetRecordsCommand,
  type GetRecordsCommandOutput,
  GetShardIteratorCommand,
  type _Record,
  type Shard,
} from '@aws-sdk/client-dynamodb-streams';
import { log } from '../../shared/log';
import { writeWhole } from './write-whole';
import { withoutSdkLogging } from '../../shared/aws/plugins';

interface Checkpoint {
  streamArn: string;
  /** Last processed sequence number per shard. */
  shards: Record<string, string>;
  finished: string[];
}

/**
 * Milliseconds between passes over the shards when the last pass found nothing and nothing woke the reader.
 * Each pass costs DynamoDB Local a stream read, so an idle reader that polled every few milliseconds kept a
 * core of the database busy; the runtime wakes the reader after each function it runs instead (`wake`).
 */
const IDLE_MS = 250;
/**
 * A shard's successor appears once it closes, which the reader sees as a page without a next iterator: it
 * describes the stream then, and otherwise this seldom. DescribeStream costs DynamoDB Local more the more
 * the stream holds; once a second, it was most of the database's work in a busy test run.
 */
const REDESCRIBE_MS = 30_000;
/** While the stream shows no shard yet, it is described again after this long. */
const NO_SHARD_REDESCRIBE_MS = 1000;
/**
 * Least milliseconds from the start of one pass to the start of the next, unless a pass read a full page: the
 * records that functions write in that time are read together, one stream read per shard instead of one per wake.
 * Measured on the monotonic clock: a wall clock set back (or a test's faked `Date`) must not hold the reader.
 */
const MIN_PASS_GAP_MS = 25;
/** Batches of one shard handed on and not yet handled, at most; the reader waits for the oldest past this. */
const MAX_IN_FLIGHT = 16;

/** Records a stream read returns at most (DynamoDB's limit is 1,000). */
const PAGE = 100;

type PassResult = 'nothing' | 'records' | 'full page';

/** A batch handed on: its handling, and the sequence number the checkpoint may advance to once it is done. */
interface InFlight {
  handled: Promise<boolean>;
  sequenceNumber: string;
}

/**
 * Stands in for the EventBridge Pipe's stream source: reads every shard of the table's stream in
 * parent-before-child order and hands each batch to `onBatch`. As the pipe's PutEvents returns before the
 * bus has run any rule target, the next batch is read without waiting for the last one's handling; but the
 * checkpoint advances only past batches that were handled, each after every earlier one, so a crash replays
 * records rather than losing them.
 */
export class StreamPoller {
  private readonly client: DynamoDBStreamsClient;
  private shards: Shard[] = [];
  private readonly iterators = new Map<string, string>();
  private readonly inFlight = new Map<string, InFlight[]>();
  private checkpoint: Checkpoint;
  private lastDescribe = 0;
  /** Set at start and when a shard closes: the next pass describes the stream first. */
  private describeDue = true;
  private running = false;
  private loop?: Promise<void>;
  /** Set by `wake` during a pass, so the pass after it starts at once. */
  private woken = false;
  private endIdle?: () => void;

  constructor(
    private readonly opts: {
      endpoint: string;
      region: string;
      streamArn: string;
      checkpointFile?: string;
      onBatch: (records: _Record[]) => Promise<void>;
    },
  ) {
    this.client = withoutSdkLogging(new DynamoDBStreamsClient({ endpoint: opts.endpoint, region: opts.region }));
    const saved =
      opts.checkpointFile && existsSync(opts.checkpointFile)
        ? (JSON.parse(readFileSync(opts.checkpointFile, 'utf8')) as Checkpoint)
        : undefined;
    this.checkpoint = saved?.streamArn === opts.streamArn ? saved : { streamArn: opts.streamArn, shards: {}, finished: [] };
  }

  start(): void {
    this.running = true;
    this.loop = this.run();
  }

  /** Reads the stream now rather than at the end of the idle wait: something may just have written to the table. */
  wake(): void {
    this.woken = true;
    this.endIdle?.();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake();
    await this.loop;
    await Promise.all([...this.inFlight.keys()].map((id) => this.settle(id, 0)));
    this.client.destroy();
  }

  private async run(): Promise<void> {
    let read: PassResult = 'nothing';
    let started = 0;
    while (this.running) {
      if (read !== 'full page') await sleep(started + MIN_PASS_GAP_MS - performance.now());
      this.woken = false;
      started = performance.now();
      read = 'nothing';
      try {
        read = await this.tick();
      } catch (error) {
        process.stderr.write(`${JSON.stringify({ level: 'error', msg: 'stream poller error', error: String(error) })}\n`);
      }
      if (read === 'nothing' && !this.woken) await this.idle();
    }
  }

  private idle(): Promise<void> {
    return new Promise((done) => {
      const timer = setTimeout(() => this.endIdle?.(), IDLE_MS);
      this.endIdle = () => {
        clearTimeout(timer);
        this.endIdle = undefined;
        done();
      };
    });
  }

  private async describe(): Promise<void> {
    const shards: Shard[] = [];
    let ExclusiveStartShardId: string | undefined;
    do {
      const { StreamDescription } = await this.client.send(
        new DescribeStreamCommand({ StreamArn: this.opts.streamArn, ExclusiveStartShardId }),
      );
      shards.push(...(StreamDescription?.Shards ?? []));
      ExclusiveStartShardId = StreamDescription?.LastEvaluatedShardId;
    } while (ExclusiveStartShardId);
    this.shards = shards;
    this.lastDescribe = Date.now();
    this.describeDue = false;
  }

  private async iteratorFor(shardId: string): Promise<string | undefined> {
    const after = this.checkpoint.shards[shardId];
    const { ShardIterator } = await this.client.send(
      new GetShardIteratorCommand({
        StreamArn: this.opts.streamArn,
        ShardId: shardId,
        ...(after ? { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: after } : { ShardIteratorType: 'TRIM_HORIZON' }),
      }),
    );
    return ShardIterator;
  }

  /** One pass over the readable shards: whether any shard's page held records, and whether one was full. */
  private async tick(): Promise<PassResult> {
    const sinceDescribe = Date.now() - this.lastDescribe;
    if (this.describeDue || sinceDescribe > (this.shards.length ? REDESCRIBE_MS : NO_SHARD_REDESCRIBE_MS)) await this.describe();
    const finished = new Set(this.checkpoint.finished);
    const known = new Set(this.shards.map((s) => s.ShardId));
    let records = false;
    let fullPage = false;
    for (const shard of this.shards) {
      const id = shard.ShardId!;
      const parentPending = shard.ParentShardId && known.has(shard.ParentShardId) && !finished.has(shard.ParentShardId);
      if (finished.has(id) || parentPending) continue;
      const iterator = this.iterators.get(id) ?? (await this.iteratorFor(id));
      if (!iterator) continue;
      let page: GetRecordsCommandOutput;
      try {
        page = await this.client.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: PAGE }));
      } catch (error) {
        // An expired iterator, or DynamoDB Local's spurious "trimmed" error for an iterator taken on a
        // shard that was empty: take a fresh iterator from the checkpoint on the next pass; nothing is skipped.
        if (error instanceof ExpiredIteratorException || error instanceof TrimmedDataAccessException) {
          this.iterators.delete(id);
          continue;
        }
        throw error;
      }
      const read = page.Records ?? [];
      if (read.length > 0) {
        this.handOn(id, read);
        records = true;
        fullPage ||= read.length === PAGE;
      }
      if (page.NextShardIterator) this.iterators.set(id, page.NextShardIterator);
      else {
        // A closed shard is finished once all of it was handled: only then may its children start.
        if (!(await this.settle(id, 0))) continue;
        this.iterators.delete(id);
        this.checkpoint.finished.push(id);
        finished.add(id);
        this.save();
        this.describeDue = true;
      }
      await this.settle(id, MAX_IN_FLIGHT - 1);
    }
    return fullPage ? 'full page' : records ? 'records' : 'nothing';
  }

  private handOn(shardId: string, records: _Record[]): void {
    const handled = this.opts.onBatch(records).then(
      () => true,
      (error: unknown) => {
        process.stderr.write(`${JSON.stringify({ level: 'error', msg: 'stream batch failed', shardId, error: String(error) })}\n`);
        return false;
      },
    );
    const queue = this.inFlight.get(shardId) ?? [];
    queue.push({ handled, sequenceNumber: records.at(-1)!.dynamodb!.SequenceNumber! });
    this.inFlight.set(shardId, queue);
    log.debug('stream batch handed on', { shardId, records: records.length, to: queue.at(-1)!.sequenceNumber, inFlight: queue.length });
    void handled.then(() => this.settle(shardId, Infinity));
  }

  /**
   * Advances the shard's checkpoint past its handled batches, in order, waiting for the oldest while more
   * than `keep` are in flight. False when a batch failed: the shard is then read again from its checkpoint.
   */
  private async settle(shardId: string, keep: number): Promise<boolean> {
    const queue = this.inFlight.get(shardId) ?? [];
    while (queue.length > 0) {
      const oldest = queue[0]!;
      if (queue.length > keep) log.debug('stream reader waits for its oldest batch', { shardId, inFlight: queue.length, keep });
      const done = queue.length > keep ? await oldest.handled : await Promise.race([oldest.handled, Promise.resolve(undefined)]);
      if (done === undefined) return true;
      if (queue[0] !== oldest) continue;
      queue.shift();
      if (!done) {
        queue.length = 0;
        this.iterators.delete(shardId);
        return false;
      }
      this.checkpoint.shards[shardId] = oldest.sequenceNumber;
      this.save();
    }
    return true;
  }

  /** Written whole: a process killed mid-write leaves the old checkpoint, never a truncated one. */
  private save(): void {
    if (this.opts.checkpointFile) writeWhole(this.opts.checkpointFile, JSON.stringify(this.checkpoint));
  }
}
