import { ConflictError, NotFoundError } from '../domain/errors';
import { Missing, Refused } from '../domain/refusal';
import { storedTenant, tenantParts, type Tenant } from '../domain/auth/tenant';
import type { PageRequest } from '../data/query';
import { DEFAULT_STORAGE_QUOTA_BYTES } from '../domain/auth/workspace';
import {
  attachmentDisposition,
  attachmentOf,
  ContentType,
  DOWNLOAD_URL_SECONDS,
  FileName,
  MAX_ATTACHMENTS,
  MAX_FILE_BYTES,
  objectKey,
  parseObjectKey,
  PENDING_OBJECT_TAG,
  servedContentType,
  UPLOAD_POLICY_SECONDS,
  type Attachment,
  type CreateFile,
  type StoredFile,
} from '../domain/files/file';
import { SNIFF_BYTES, verdict } from '../domain/files/sniff';
import { deleteObject, presignUpload, readHead, untagObject, writeObject, type StoredAs } from '../aws/s3';
import { signedDownloadUrl } from '../aws/downloads';
import {
  conversationFiles,
  createFile,
  deleteFileRecord,
  getFile,
  getFiles,
  readyFilesPage,
  settleFile,
  storageUsage,
} from '../data/files';
import { getWorkspace } from '../data/workspaces';
import { log } from '../log';
import type { Unit } from '../data/unit';

/** Ready files, newest first; the exact total is the usage counter's count of ready files, kept in the same transactions. */
export const listFiles = async (tenant: Tenant, page: PageRequest) => {
  const [{ files, nextCursor }, usage] = await Promise.all([readyFilesPage(tenant, page), storageUsage(tenant)]);
  return { files, total: usage.files, nextCursor };
};

const quotaOf = async (tenant: Tenant): Promise<number> =>
  (await getWorkspace(tenantParts(tenant).workspaceId))?.storageQuotaBytes ?? DEFAULT_STORAGE_QUOTA_BYTES;

/**
 * What a file's object is stored with, whoever writes it: served as an attachment under its name, as opaque
 * bytes when a browser could run it (every download, through any path), and pending until the file is ready.
 */
const storedAs = (file: { name: string; contentType: string }): StoredAs => ({
  contentType: servedContentType(file.contentType),
  contentDisposition: attachmentDisposition(file.name),
  tag: PENDING_OBJECT_TAG,
});

/** The policy's own expiration: what S3 (and the stand-in) will hold the upload to. */
const policyExpiry = (fields: Record<string, string>): string =>
  new Date((JSON.parse(Buffer.from(fields.Policy ?? '', 'base64').toString('utf8')) as { expiration: string }).expiration).toISOString();

/**
 * Starts an upload: the file's pending record and a presigned POST that accepts exactly its key, type and
 * size for 15 minutes. Refused (409, with the usage in `details`) when the ready files and this one would
 * pass the workspace's storage quota.
 */
export const createUpload = async (unit: Unit, tenant: Tenant, input: CreateFile, now: Date) => {
  const [quotaBytes, usage] = await Promise.all([quotaOf(tenant), storageUsage(tenant)]);
  if (usage.bytes + input.size > quotaBytes) {
    throw new ConflictError('The workspace’s storage quota has no room for this file', {
      quotaBytes,
      usedBytes: usage.bytes,
      requestedBytes: input.size,
    });
  }
  const file = await createFile(unit, tenant, input, now);
  const post = await presignUpload(objectKey(tenant, file._id), file.size, storedAs(file), UPLOAD_POLICY_SECONDS);
  return { file, upload: { method: 'POST' as const, url: post.url, fields: post.fields, expiresAt: policyExpiry(post.fields) } };
};

const requireFile = async (tenant: Tenant, id: string, now: Date): Promise<StoredFile> => {
  const file = await getFile(tenant, id, now);
  if (!file) throw new NotFoundError('File');
  return file;
};

/** The file, with a signed download URL (through the CDN: an attachment, never inline, never sniffed; 5 minutes) once it is ready. */
export const readFile = async (tenant: Tenant, id: string, now: Date) => {
  const file = await requireFile(tenant, id, now);
  if (file.status !== 'ready') return { ...file, download: null };
  const expiresAt = new Date(Math.floor(now.getTime() / 1000 + DOWNLOAD_URL_SECONDS) * 1000);
  const url = await signedDownloadUrl(objectKey(tenant, file._id), expiresAt);
  return { ...file, download: { url, expiresAt: expiresAt.toISOString() } };
};

/**
 * Deletes a file no message holds (409 for one a message holds: it goes with its conversation). The record goes
 * with its `inbox.file.deleted` event, and the bytes follow that event (`objectFollowsFile`), so a crash after
 * the commit cannot keep them.
 */
export const deleteFile = async (unit: Unit, tenant: Tenant, id: string, now: Date): Promise<StoredFile> => {
  const file = await requireFile(tenant, id, now);
  if (file.conversationId) {
    throw new ConflictError('A message holds this file: it is deleted with its conversation', { conversationId: file.conversationId });
  }
  try {
    await deleteFileRecord(unit, tenant, file, now, { alone: true });
  } catch (error) {
    // Deleted or attached meanwhile: a repeat would now answer 404, or the 409 above.
    if (!(error instanceof Refused)) throw error;
    return deleteFile(unit, tenant, id, now);
  }
  return file;
};

/**
 * The files a message names, as it carries them: each must be a file of this tenant (else 404, as for any
 * id of another workspace or mode), ready, and held by no other conversation.
 */
export const resolveAttachments = async (
  tenant: Tenant,
  refs: readonly { fileId: string }[] | undefined,
  conversationId: string | undefined,
  now: Date,
): Promise<Attachment[] | undefined> => {
  if (!refs?.length) return undefined;
  const files = await getFiles(
    tenant,
    refs.map((r) => r.fileId),
    now,
  );
  return refs.map(({ fileId }) => {
    const file = files.get(fileId);
    if (!file) throw new NotFoundError('File', { fileId });
    if (file.status !== 'ready') throw new ConflictError(`File ${fileId} is ${file.status}, not ready`, { fileId, status: file.status });
    if (file.conversationId && file.conversationId !== conversationId) {
      throw new ConflictError(`File ${fileId} is held by another conversation`, { fileId });
    }
    return attachmentOf(file);
  });
};

/**
 * What an object-created notification means: the pending file whose key landed becomes `ready` or
 * `rejected` (its bytes deleted), exactly once however often the notification comes. Reads the
 * object's first bytes only (a ranged GET). The object keeps its pending tag: it loses it after the
 * `inbox.file.ready` event, so a crash here leaves it to the lifecycle rule, never a ready file's bytes to it.
 */
export const verifyUpload = async (unit: Unit, key: string, now: Date): Promise<StoredFile | undefined> => {
  const parsed = parseObjectKey(key);
  if (!parsed) {
    log.warn('object outside the files layout', { key });
    return undefined;
  }
  const tenant = storedTenant(parsed.tenant);
  const file = await getFile(tenant, parsed.fileId, now);
  if (file?.status !== 'pending') return file;
  const head = await readHead(key, SNIFF_BYTES);
  if (!head) return file;
  const check = verdict(file, head.size, head.sample);
  const settled = await settleFile(unit, tenant, file, check.ok ? { ok: true, quotaBytes: await quotaOf(tenant) } : check, now);
  if (settled?.status === 'rejected') await deleteObject(key);
  return settled;
};

/** After a conversation is deleted: the files its messages held go too, each record with its event (the bytes follow it). */
export const deleteConversationFiles = async (unit: Unit, tenant: Tenant, conversationId: string, now: Date): Promise<number> => {
  const files = await conversationFiles(tenant, conversationId);
  for (const file of files) {
    await deleteFileRecord(unit, tenant, file, now, { alone: false }).catch((error: unknown) => {
      if (!(error instanceof Missing)) throw error;
    });
  }
  return files.length;
};

/**
 * A file's object follows its record, moved by the events committed with each change (delivered at least
 * once): a ready file's object loses its pending tag, so the lifecycle rule keeps it; a deleted file's object
 * is deleted. Either is harmless to repeat, and to run on an object that is already gone.
 */
export const objectFollowsFile = async (tenant: Tenant, change: 'ready' | 'deleted', fileId: string): Promise<void> => {
  const key = objectKey(tenant, fileId);
  if (change === 'ready') await untagObject(key);
  else await deleteObject(key);
};

/**
 * An incoming email's attachments become files of the tenant: each is stored and verified at once (the
 * verifier's own check; its later S3 notification then finds it decided). What is rejected, empty or over
 * the limits is left off the message, and logged.
 */
export const storeReceivedFiles = async (
  unit: Unit,
  tenant: Tenant,
  parts: readonly { name: string; contentType: string; bytes: Uint8Array }[],
  now: Date,
): Promise<Attachment[]> => {
  const ready: Attachment[] = [];
  for (const part of parts.slice(0, MAX_ATTACHMENTS)) {
    const name = FileName.safeParse(part.name);
    const contentType = ContentType.safeParse(part.contentType);
    if (!name.success || !contentType.success || part.bytes.length === 0 || part.bytes.length > MAX_FILE_BYTES) {
      log.warn('incoming attachment left off', { name: part.name, size: part.bytes.length });
      continue;
    }
    const file = await createFile(unit, tenant, { name: name.data, contentType: contentType.data, size: part.bytes.length }, now);
    const key = objectKey(tenant, file._id);
    await writeObject(key, part.bytes, storedAs({ name: name.data, contentType: contentType.data }));
    const settled = (await verifyUpload(unit, key, now)) ?? (await getFile(tenant, file._id, now));
    if (settled?.status === 'ready') ready.push(attachmentOf(settled));
    else log.warn('incoming attachment rejected', { fileId: file._id, reason: settled?.rejectedReason });
  }
  return ready;
};
