import { gunzipSync, gzipSync } from 'node:zlib';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import type { Tenant } from '../domain/auth/tenant';
import { IdempotencyKeyTakenOver, type IdempotencyRecord, type StoredResponse } from '../domain/idempotency/decide';
import { IDEMPOTENCY_LOCK_SECONDS, IDEMPOTENCY_WINDOW_SECONDS, keyDigest } from '../domain/idempotency/key';
import { tenantPk } from './keys';
import { collect, queryAll } from './query';
import { deleteItem, putItem, removeOnce, updateItem, type Write } from './transact';
import { K } from './registry/registry';

/**
 * Idempotency records: pk=<tenant>#IDEM#<token id>#<sha256 of the key>, sk=IDEM (TTL), so a key is
 * scoped to the token and the workspace mode by construction. A body too large to sit in the record is
 * gzipped into sk=BODY#<n> items of the same partition, written in the same transaction.
 */
export interface KeyRef {
  tenant: Tenant;
  tokenId: string;
  key: string;
  /** Who holds the key: one attempt of one request. */
  owner: string;
}

const RECORD_SK = K.IDEM;
/** Bodies up to this size are kept as text in the record; larger ones are gzipped into chunk items. */
const INLINE_BODY_BYTES = 64 * 1024;
/** Well under the 400 KB item limit. */
const CHUNK_BYTES = 300 * 1024;

const pkOf = (ref: KeyRef) => tenantPk(ref.tenant, K.IDEM, ref.tokenId, keyDigest(ref.key));
const recordKey = (ref: KeyRef) => ({ pk: pkOf(ref), sk: RECORD_SK });
/** The index partition listing a tenant's completed records. */
const recordsPk = (tenant: Tenant) => tenantPk(tenant, K.IDEMS);
const chunkSk = (n: number) => `${K.BODY}#${String(n).padStart(3, '0')}`;
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

const responseOf = (record: Record<string, unknown>, chunks: Record<string, unknown>[]): StoredResponse | undefined => {
  if (typeof record.statusCode !== 'number') return undefined;
  const body =
    typeof record.body === 'string'
      ? record.body
      : gunzipSync(Buffer.concat(chunks.slice(0, record.bodyChunks as number).map((c) => Buffer.from(c.data as Uint8Array)))).toString(
          'utf8',
        );
  return { statusCode: record.statusCode, headers: record.headers as Record<string, string>, body };
};

/**
 * Deletes each completed record of the tenant whose kept answer mentions one of `needles` (with its body
 * chunks), each with `tally` in its transaction; answers how many. A record gone meanwhile is skipped.
 */
export const deleteRecordsNaming = async (tenant: Tenant, needles: readonly string[], tally: () => Write): Promise<number> => {
  let deleted = 0;
  for await (const indexed of queryAll({ index: 'gsi1', pk: recordsPk(tenant) })) {
    const [record, ...chunks] = await collect(queryAll({ pk: indexed.pk as string, consistent: true }));
    const body = record?.sk === RECORD_SK ? responseOf(record, chunks)?.body : undefined;
    if (!body || !needles.some((n) => body.includes(n))) continue;
    const chunkWrites = chunks.map((c) => deleteItem({ pk: c.pk as string, sk: c.sk as string }));
    if (await removeOnce({ pk: record!.pk as string, sk: RECORD_SK }, [...chunkWrites, tally()])) deleted++;
  }
  return deleted;
};

/** The key's record with its kept response, read consistently; undefined when there is none. */
export const readKey = async (ref: KeyRef): Promise<IdempotencyRecord | undefined> => {
  const [record, ...chunks] = await collect(queryAll({ pk: pkOf(ref), consistent: true }));
  if (!record || record.sk !== RECORD_SK) return undefined;
  return {
    fingerprint: record.fingerprint as string,
    status: record.status as IdempotencyRecord['status'],
    lockUntil: record.lockUntil as number,
    expiresAt: record.expiresAt as number,
    commits: record.commits as number,
    response: responseOf(record, chunks),
  };
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
      pk: pkOf(ref),
      sk: chunkSk(n),
      type: 'IDEMPOTENCY_BODY',
      data: zipped.subarray(n * CHUNK_BYTES, (n + 1) * CHUNK_BYTES),
      ttl,
    }),
  );
  const body = large ? 'bodyChunks = :chunks' : '#body = :body';
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
        ':tenantIx': recordsPk(ref.tenant),
        ':ix': `${ref.tokenId}#${keyDigest(ref.key)}`,
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
