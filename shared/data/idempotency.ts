import { gunzipSync, gzipSync } from 'node:zlib';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import type { Tenant } from '../domain/auth/tenant';
import { IdempotencyKeyTakenOver, type IdempotencyRecord, type StoredResponse } from '../domain/idempotency/decide';
import { IDEMPOTENCY_LOCK_SECONDS, IDEMPOTENCY_WINDOW_SECONDS, keyDigest } from '../domain/idempotency/key';
import { storedKey } from './codec';
import { collect, queryAll } from './query';
import { deleteItem, putItem, updateItem, type Write } from './transact';
import { removeOnce } from './unit';
import { idempotency, idempotencyBody } from './registry/requests';

/** Idempotency records and their body chunks (keys, and how they hold together: registry/workspace.ts). */
export interface KeyRef {
  tenant: Tenant;
  tokenId: string;
  key: string;
  /** Who holds the key: one attempt of one request. */
  owner: string;
}

/** Bodies up to this size are kept as text in the record; larger ones are gzipped into chunk items. */
const INLINE_BODY_BYTES = 64 * 1024;
/** Well under the 400 KB item limit. */
const CHUNK_BYTES = 300 * 1024;

const keyOf = (ref: KeyRef) => ({ tenant: ref.tenant, tokenId: ref.tokenId, keyDigest: keyDigest(ref.key) });
const recordKey = (ref: KeyRef) => idempotency.key(keyOf(ref));
const chunkKey = (ref: KeyRef, n: number) => idempotencyBody.key({ ...keyOf(ref), n: String(n).padStart(3, '0') });
const seconds = (now: Date) => Math.floor(now.getTime() / 1000);

const takenOver = (ref: KeyRef) => () => new IdempotencyKeyTakenOver(ref.key);

const HELD_BY_ME = { condition: '#owner = :me AND #status = :running', names: { '#owner': 'owner', '#status': 'status' } };

/**
 * Claims the key for `ref.owner` when nobody holds it: no record, an expired one, or one whose holder
 * ran out of time having committed nothing. False when someone else's record stands.
 */
export const claimKey = async (ref: KeyRef, fingerprint: string, now: Date): Promise<boolean> => {
  const at = seconds(now);
  try {
    await dynamo().send(
      new PutCommand({
        TableName: config().TABLE_NAME,
        Item: {
          ...recordKey(ref),
          type: 'IDEMPOTENCY',
          fingerprint,
          status: 'running',
          owner: ref.owner,
          lockUntil: at + IDEMPOTENCY_LOCK_SECONDS,
          expiresAt: at + IDEMPOTENCY_WINDOW_SECONDS,
          ttl: at + IDEMPOTENCY_WINDOW_SECONDS,
          commits: 0,
        },
        ConditionExpression:
          'attribute_not_exists(pk) OR expiresAt <= :now OR (#status = :running AND lockUntil <= :now AND commits = :zero AND fingerprint = :fp)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':now': at, ':running': 'running', ':zero': 0, ':fp': fingerprint },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
};

type StoredRecord = ReturnType<typeof idempotency.parse>;

/** A key's partition as read: its record (none when it has none) and its body chunks, in order. */
const readPartition = async (pk: string) => {
  const items = await collect(queryAll({ pk, consistent: true }));
  const record = items.find((i) => i.sk === idempotency.build('sk', {}));
  return { record: record && idempotency.parse(record), chunks: items.filter((i) => i !== record) };
};

const responseOf = (
  { statusCode, headers, body, bodyChunks }: StoredRecord,
  chunks: Record<string, unknown>[],
): StoredResponse | undefined => {
  if (statusCode === undefined) return undefined;
  const text =
    body ?? gunzipSync(Buffer.concat(chunks.slice(0, bodyChunks).map((c) => Buffer.from(idempotencyBody.parse(c).data)))).toString('utf8');
  return { statusCode, headers: headers ?? {}, body: text };
};

/**
 * Deletes each completed record of the tenant whose kept answer mentions one of `needles` (with its body
 * chunks), each with `tally` in its transaction; answers how many. A record gone meanwhile is skipped.
 */
export const deleteRecordsNaming = async (tenant: Tenant, needles: readonly string[], tally: () => Write): Promise<number> => {
  let deleted = 0;
  for await (const indexed of queryAll({ index: 'gsi1', pk: idempotency.build('gsi1pk', { tenant }) })) {
    const key = idempotency.key({ tenant, ...idempotency.read('gsi1sk', indexed.gsi1sk) });
    const { record, chunks } = await readPartition(key.pk);
    const body = record && responseOf(record, chunks)?.body;
    if (!body || !needles.some((n) => body.includes(n))) continue;
    if (await removeOnce(key, [...chunks.map((c) => deleteItem(storedKey(c))), tally()])) deleted++;
  }
  return deleted;
};

/** The key's record with its kept response, read consistently; undefined when there is none. */
export const readKey = async (ref: KeyRef): Promise<IdempotencyRecord | undefined> => {
  const { record, chunks } = await readPartition(recordKey(ref).pk);
  if (!record) return undefined;
  const { fingerprint, status, lockUntil, expiresAt, commits } = record;
  return { fingerprint, status, lockUntil, expiresAt, commits, response: responseOf(record, chunks) };
};

/** Rides in every transaction of a request that commits more than one: the record counts them. */
export const commitMarker = (ref: KeyRef): Write =>
  updateItem(recordKey(ref), 'ADD commits :one', {
    ...HELD_BY_ME,
    values: { ':one': 1, ':me': ref.owner, ':running': 'running' },
    onFail: takenOver(ref),
  });

/** The record's completion with the response it keeps (and the body's chunk items when it is large). */
export const completionWrites = (ref: KeyRef, response: StoredResponse, now: Date): Write[] => {
  const ttl = seconds(now) + IDEMPOTENCY_WINDOW_SECONDS;
  const large = Buffer.byteLength(response.body) > INLINE_BODY_BYTES;
  const zipped = large ? gzipSync(response.body) : Buffer.alloc(0);
  const chunks = Array.from({ length: Math.ceil(zipped.length / CHUNK_BYTES) }, (_, n) =>
    putItem({
      ...chunkKey(ref, n),
      type: 'IDEMPOTENCY_BODY',
      data: zipped.subarray(n * CHUNK_BYTES, (n + 1) * CHUNK_BYTES),
      ttl,
    }),
  );
  const body = large ? 'bodyChunks = :chunks' : '#body = :body';
  const listed = idempotency.index('gsi1', keyOf(ref));
  return [
    updateItem(recordKey(ref), `SET #status = :done, statusCode = :code, headers = :headers, gsi1pk = :tenantIx, gsi1sk = :ix, ${body}`, {
      ...HELD_BY_ME,
      names: { ...HELD_BY_ME.names, ...(large ? {} : { '#body': 'body' }) },
      values: {
        ':me': ref.owner,
        ':running': 'running',
        ':done': 'done',
        ':code': response.statusCode,
        ':headers': response.headers,
        ':tenantIx': listed.gsi1pk,
        ':ix': listed.gsi1sk,
        ...(large ? { ':chunks': chunks.length } : { ':body': response.body }),
      },
      onFail: takenOver(ref),
    }),
    ...chunks,
  ];
};

/** Gives the key back after a failure that committed nothing (a 5xx): a repeat runs the request again. */
export const releaseKey = async (ref: KeyRef): Promise<void> => {
  try {
    await dynamo().send(
      new DeleteCommand({
        TableName: config().TABLE_NAME,
        Key: recordKey(ref),
        ConditionExpression: '#owner = :me AND commits = :zero',
        ExpressionAttributeNames: { '#owner': 'owner' },
        ExpressionAttributeValues: { ':me': ref.owner, ':zero': 0 },
      }),
    );
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
};
