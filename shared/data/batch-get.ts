import { BatchGetCommand, type BatchGetCommandOutput } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import { backoff } from './retry';

type Key = { pk: string; sk: string };

/** DynamoDB's limit of keys in one BatchGetItem. */
const CHUNK = 100;
/** Rounds of UnprocessedKeys (throttling, 16 MB responses) before the read gives up. */
const MAX_ROUNDS = 10;

const idOf = (k: Key) => `${k.pk}|${k.sk}`;

const readChunk = async (keys: Key[], consistent: boolean, found: Map<string, Record<string, unknown>>) => {
  const table = config().TABLE_NAME;
  let request: Record<string, unknown>[] | undefined = keys;
  for (let round = 0; request && request.length > 0; round++) {
    if (round >= MAX_ROUNDS) throw new Error(`BatchGetItem left ${request.length} keys unprocessed after ${MAX_ROUNDS} rounds`);
    if (round > 0) await backoff(round, 50, 1000);
    const res: BatchGetCommandOutput = await dynamo().send(
      new BatchGetCommand({ RequestItems: { [table]: { Keys: request, ConsistentRead: consistent } } }),
    );
    for (const item of res.Responses?.[table] ?? []) found.set(idOf(item as Key), item);
    request = res.UnprocessedKeys?.[table]?.Keys;
  }
};

const readAll = async (keys: readonly Key[], consistent: boolean): Promise<Map<string, Record<string, unknown>>> => {
  const found = new Map<string, Record<string, unknown>>();
  for (let i = 0; i < keys.length; i += CHUNK) await readChunk(keys.slice(i, i + CHUNK), consistent, found);
  return found;
};

/** Each key's item (undefined when missing), in the order of `keys`; unprocessed keys are retried with backoff. */
export const batchGetEach = async (keys: readonly Key[], { consistent = true } = {}): Promise<(Record<string, unknown> | undefined)[]> => {
  const found = await readAll(keys, consistent);
  return keys.map((k) => found.get(idOf(k)));
};

/** Items for `keys` in the order of `keys` (missing ones left out). */
export const batchGet = async (keys: readonly Key[], opts: { consistent?: boolean } = {}): Promise<Record<string, unknown>[]> =>
  (await batchGetEach(keys, opts)).filter((item) => item !== undefined);

interface Joined {
  keys: readonly Key[];
  read: (found: Map<string, Record<string, unknown>>) => void;
  fail: (error: unknown) => void;
}

/** The reads asked for in the current turn of the event loop, not yet sent. */
let joining: Joined[] | undefined;

const readJoined = async (reads: Joined[]): Promise<void> => {
  const unique = new Map(reads.flatMap((r) => r.keys.map((k) => [idOf(k), k] as const)));
  try {
    const found = await readAll([...unique.values()], true);
    for (const r of reads) r.read(found);
  } catch (error) {
    for (const r of reads) r.fail(error);
  }
};

/**
 * `batchGetEach` (consistent), joined with every other call made in the same turn of the event loop into
 * one BatchGetItem, each key read once: a queue worker handles its batch's messages side by side, and their
 * first reads, which share keys (a subscription, a workspace), become one round trip instead of one each.
 * The joined request runs in the first caller's context, so only one function's handlers may share it.
 */
export const batchGetJoined = (keys: readonly Key[]): Promise<(Record<string, unknown> | undefined)[]> =>
  new Promise((resolve, reject) => {
    if (!joining) {
      const reads: Joined[] = [];
      joining = reads;
      setImmediate(() => {
        joining = undefined;
        void readJoined(reads);
      });
    }
    joining.push({ keys, read: (found) => resolve(keys.map((k) => found.get(idOf(k)))), fail: reject });
  });
