import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Tenant } from '../domain/auth/tenant';
import { Missing, Refused } from '../domain/refusal';
import {
  isExpired,
  newFile,
  PENDING_TTL_SECONDS,
  type Attachment,
  type CreateFile,
  type RejectedReason,
  type StoredFile,
} from '../domain/files/file';
import { buildEnvelope } from '../events/envelope';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import { objectId } from '../ids';
import { batchGet } from './batch-get';
import { readCount, workspaceCounter } from './counters';
import { outboxItem } from './outbox';
import { collect, queryAll, queryPage, type PageRequest } from './query';
import { createItem, deleteItem, updateItem, type Write } from './transact';
import type { Unit } from './unit';
import { file as fileEntity } from './registry/files';

/** Files of a workspace (keys, indexes and the storage counter: registry/files.ts). */
const fileKey = (tenant: Tenant, id: string) => fileEntity.key({ tenant, id });
const STORAGE = 'storage';
const storageKey = (tenant: Tenant) => workspaceCounter(tenant, STORAGE);

/** Unset fields are not stored, so conditions can ask `attribute_not_exists`. */
const toItem = (tenant: Tenant, f: StoredFile) => ({
  ...fileKey(tenant, f._id),
  type: 'FILE',
  ...Object.fromEntries(Object.entries(f).filter(([, v]) => v !== null)),
  ttl: Math.floor(Date.parse(f.createdAt) / 1000) + PENDING_TTL_SECONDS,
});

const fromItem = fileEntity.parse;

export interface StorageUsage {
  files: number;
  bytes: number;
}

export const storageUsage = async (tenant: Tenant): Promise<StorageUsage> => {
  const [files, bytes] = await Promise.all([readCount(storageKey(tenant)), readCount(storageKey(tenant), 'bytes')]);
  return { files, bytes };
};

export const createFile = async (unit: Unit, tenant: Tenant, input: CreateFile, now: Date): Promise<StoredFile> => {
  const file = newFile(objectId(now.getTime()), input, now);
  await unit.commit([createItem(toItem(tenant, file))]);
  return file;
};

/** A file of the tenant; a pending one past its 24 hours is gone, whether or not DynamoDB's TTL has removed it yet. */
export const getFile = async (tenant: Tenant, id: string, now: Date): Promise<StoredFile | undefined> => {
  const { Item } = await dynamo().send(new GetCommand({ TableName: config().TABLE_NAME, Key: fileKey(tenant, id), ConsistentRead: true }));
  const file = Item && fromItem(Item);
  return file && !isExpired(file, now) ? file : undefined;
};

/** Files by id (strongly consistent), for the attachments a message names; expired pending ones are absent. */
export const getFiles = async (tenant: Tenant, ids: readonly string[], now: Date): Promise<Map<string, StoredFile>> => {
  const items = await batchGet([...new Set(ids)].map((id) => fileKey(tenant, id)));
  const files = items.map(fromItem).filter((f) => !isExpired(f, now));
  return new Map(files.map((f) => [f._id, f]));
};

/** Ready files, newest first; the total is the storage counter's. */
/** A page of the tenant's ready files, newest first (only a ready file is in the index). */
export const readyFilesPage = async (tenant: Tenant, page: PageRequest) => {
  const result = await queryPage({ index: 'gsi1', pk: fileEntity.build('gsi1pk', { tenant }), newestFirst: true }, page);
  return { files: result.items.map(fromItem), nextCursor: result.nextCursor };
};

const stillPending = { condition: '#s = :pending', names: { '#s': 'status' }, values: { ':pending': 'pending' } } as const;

/**
 * The verifier's verdict, once: the pending file becomes `ready` (listed, counted, within `quotaBytes`) or
 * `rejected`, with its event, in one transaction conditional on the file still being pending. Answers what
 * the file is now, or `undefined` when another run decided first. A ready file past the quota is
 * `quota_exceeded` instead.
 */
export const settleFile = async (
  unit: Unit,
  tenant: Tenant,
  file: StoredFile,
  outcome: { ok: true; quotaBytes: number } | { ok: false; reason: RejectedReason },
  now: Date,
): Promise<StoredFile | undefined> => {
  const at = now.toISOString();
  const reject = async (reason: RejectedReason) => {
    const rejected: StoredFile = { ...file, status: 'rejected', rejectedReason: reason, updatedAt: at };
    const wrote = await settle(unit, [
      updateItem(fileKey(tenant, file._id), 'SET #s = :rejected, rejectedReason = :r, updatedAt = :u', {
        ...stillPending,
        values: { ...stillPending.values, ':rejected': 'rejected', ':r': reason, ':u': at },
      }),
      outboxItem(buildEnvelope('inbox.file.rejected', tenant, { file: rejected }, { now })),
    ]);
    return wrote ? rejected : undefined;
  };
  if (!outcome.ok) return reject(outcome.reason);
  const ready: StoredFile = { ...file, status: 'ready', updatedAt: at };
  const listed = fileEntity.index('gsi1', { tenant, id: file._id });
  const overQuota = new Refused('storage_quota_exceeded', 'The workspace has no room left for this file');
  try {
    const wrote = await settle(unit, [
      updateItem(fileKey(tenant, file._id), 'SET #s = :ready, updatedAt = :u, gsi1pk = :lpk, gsi1sk = :lsk REMOVE #ttl', {
        names: { ...stillPending.names, '#ttl': 'ttl' },
        values: { ...stillPending.values, ':ready': 'ready', ':u': at, ':lpk': listed.gsi1pk, ':lsk': listed.gsi1sk },
        condition: stillPending.condition,
      }),
      updateItem(storageKey(tenant), 'ADD #n :one, #b :size', {
        names: { '#n': 'n', '#b': 'bytes' },
        values: { ':one': 1, ':size': file.size, ':room': outcome.quotaBytes - file.size },
        condition: 'attribute_not_exists(#b) OR #b <= :room',
        onFail: () => overQuota,
      }),
      outboxItem(buildEnvelope('inbox.file.ready', tenant, { file: ready }, { now })),
    ]);
    return wrote ? ready : undefined;
  } catch (error) {
    if (error !== overQuota) throw error;
    return reject('quota_exceeded');
  }
};

class Settled extends Error {}
/** Commits the writes unless their first (the file's own, conditional on `pending`) finds the file decided. */
const settle = async (unit: Unit, writes: Write[]): Promise<boolean> => {
  try {
    await unit.commit(writes, (index) => (index === 0 ? new Settled() : new Error(`settling a file: write ${index} refused`)));
    return true;
  } catch (error) {
    if (error instanceof Settled) return false;
    throw error;
  }
};

/**
 * What a message holding `attachments` writes on each file, in the message's transaction: the file is bound
 * to the conversation (listed under it, deleted with it). It must still be ready, and held by no other conversation.
 */
export const attachWrites = (tenant: Tenant, conversationId: string, attachments: readonly Attachment[]): Write[] =>
  attachments.map((a) => {
    const held = fileEntity.index('gsi2', { tenant, conversationId, id: a.fileId });
    return updateItem(fileKey(tenant, a.fileId), 'SET conversationId = :c, gsi2pk = :cpk, gsi2sk = :csk', {
      names: { '#s': 'status' },
      values: {
        ':c': conversationId,
        ':cpk': held.gsi2pk,
        ':csk': held.gsi2sk,
        ':ready': 'ready',
      },
      condition: 'attribute_exists(pk) AND #s = :ready AND (attribute_not_exists(conversationId) OR conversationId = :c)',
      onFail: () =>
        new Refused('file_not_attachable', `File ${a.fileId} is no longer ready, or another conversation holds it`, { fileId: a.fileId }),
    });
  });

/** The files a conversation's messages hold. */
export const conversationFiles = async (tenant: Tenant, conversationId: string): Promise<StoredFile[]> =>
  (await collect(queryAll({ index: 'gsi2', pk: fileEntity.build('gsi2pk', { tenant, conversationId }) }))).map(fromItem);

/** Removes the file's record (uncounting it when it was ready) with `inbox.file.deleted`. With `alone`, a held file is refused. */
export const deleteFileRecord = async (
  unit: Unit,
  tenant: Tenant,
  file: StoredFile,
  now: Date,
  opts: { alone: boolean },
): Promise<void> => {
  const guard = opts.alone
    ? {
        condition: 'attribute_exists(pk) AND attribute_not_exists(conversationId) AND #s = :s',
        names: { '#s': 'status' },
        values: { ':s': file.status },
        onFail: () =>
          new Refused('file_attached', 'A message holds this file (or it changed meanwhile): delete the conversation, or read it again'),
      }
    : { condition: 'attribute_exists(pk)', onFail: () => new Missing('File') };
  await unit.commit([...fileRemoval(tenant, file, guard), outboxItem(buildEnvelope('inbox.file.deleted', tenant, { file }, { now }))]);
};

/** The writes that remove the file's record as read, uncounting it when it was ready; the delete is conditional on `guard`. */
export const fileRemoval = (tenant: Tenant, file: StoredFile, guard: Parameters<typeof deleteItem>[1]): Write[] => [
  deleteItem(fileKey(tenant, file._id), guard),
  ...(file.status === 'ready'
    ? [
        updateItem(storageKey(tenant), 'ADD #n :one, #b :size', {
          names: { '#n': 'n', '#b': 'bytes' },
          values: { ':one': -1, ':size': -file.size },
        }),
      ]
    : []),
];
