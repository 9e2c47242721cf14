import * as z from 'zod';
import type { Tenant } from '../auth/tenant';
import { built } from '../built';

/** At most 25 MiB a file: what one presigned POST may carry. */
export const MAX_FILE_BYTES = 25 * 1024 * 1024;
/** How long an upload's presigned POST policy is valid (S3's own cap for this project: 15 minutes). */
export const UPLOAD_POLICY_SECONDS = 15 * 60;
/** How long a download URL is valid. */
export const DOWNLOAD_URL_SECONDS = 5 * 60;
/** A pending upload whose bytes never landed is gone after this long (the record's TTL and the bucket's lifecycle rule). */
export const PENDING_TTL_SECONDS = 24 * 3600;
/** At most this many files on one message. */
export const MAX_ATTACHMENTS = 10;

/**
 * Every object lands tagged pending (the upload's policy and the email path's PutObject pin the tag), and only
 * a ready file's object loses the tag: the bucket's lifecycle rule expires a pending object a day after it
 * landed, so bytes whose verification never came, or whose deletion never happened, cannot stay for good.
 */
export const PENDING_OBJECT_TAG = { key: 'parley-state', value: 'pending' } as const;
export const PENDING_OBJECT_DAYS = 1;

export const FILE_STATUSES = ['pending', 'ready', 'rejected'] as const;
type FileStatus = (typeof FILE_STATUSES)[number];

export const REJECTED_REASONS = ['size_mismatch', 'type_mismatch', 'quota_exceeded'] as const;
export type RejectedReason = (typeof REJECTED_REASONS)[number];

export interface StoredFile {
  _id: string;
  name: string;
  contentType: string;
  size: number;
  status: FileStatus;
  rejectedReason: RejectedReason | null;
  /** The conversation whose message holds the file, once one does: it is then deleted with it, never alone. */
  conversationId: string | null;
  createdAt: string;
  updatedAt: string;
}

/** What a message carries of each file it holds. */
export interface Attachment {
  fileId: string;
  name: string;
  contentType: string;
  size: number;
}

/** Control characters (CR and LF among them), slashes, backslashes and quotes never reach a stored name, so never a header. */
const isUnsafe = (c: string) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f || c === '"' || c === '/' || c === '\\';
/** A file's name as stored: its last path segment, each unsafe character replaced by `_`. */
export const sanitizeName = (raw: string): string => {
  const last = raw.split(/[/\\]/).pop() ?? '';
  return [...last]
    .map((c) => (isUnsafe(c) ? '_' : c))
    .join('')
    .trim();
};

export const FileName = /* @__PURE__ */ built(() =>
  z
    .string()
    .max(255)
    .transform(sanitizeName)
    .refine((n) => n.length > 0 && n !== '.' && n !== '..', 'Must name a file'),
);

/** `type/subtype`, lower-cased; parameters (`; charset=…`) are not part of what a policy pins. */
export const ContentType = /* @__PURE__ */ built(() =>
  z
    .string()
    .max(127)
    .regex(/^[\w.+-]+\/[\w.+-]+$/, 'Must be a MIME type like application/pdf')
    .transform((t) => t.toLowerCase()),
);

export const CreateFile = /* @__PURE__ */ built(() =>
  z.strictObject({
    name: FileName,
    contentType: ContentType,
    size: z.number().int().min(1).max(MAX_FILE_BYTES, `Must be at most ${MAX_FILE_BYTES} bytes (25 MiB)`),
  }),
);
export type CreateFile = z.output<typeof CreateFile>;

export const newFile = (id: string, input: CreateFile, now: Date): StoredFile => ({
  _id: id,
  name: input.name,
  contentType: input.contentType,
  size: input.size,
  status: 'pending',
  rejectedReason: null,
  conversationId: null,
  createdAt: now.toISOString(),
  updatedAt: now.toISOString(),
});

/** A pending upload past its TTL is gone, even before DynamoDB's TTL sweep removes its record. */
export const isExpired = (file: Pick<StoredFile, 'status' | 'createdAt'>, now: Date): boolean =>
  file.status === 'pending' && Date.parse(file.createdAt) + PENDING_TTL_SECONDS * 1000 <= now.getTime();

/** The object key of a file: its tenant, then its id, so test mode's objects never share a prefix with live mode's. */
export const objectKey = (tenant: Tenant, fileId: string): string => `${tenant}/${fileId}`;

const KEY = /^([0-9a-f]{24}(?:~test)?)\/([0-9a-f]{24})$/;
/** The tenant and file id an object key names, or undefined for a key Parley never makes. */
export const parseObjectKey = (key: string): { tenant: string; fileId: string } | undefined => {
  const m = KEY.exec(key);
  return m ? { tenant: m[1]!, fileId: m[2]! } : undefined;
};

/** `attachment` with an ASCII fallback name and the exact UTF-8 one (RFC 6266 / 5987): never `inline`. */
export const attachmentDisposition = (name: string): string => {
  const ascii =
    sanitizeName(name)
      .replace(/[^\x20-\x7e]/g, '_')
      .replace(/[%;]/g, '_') || 'file';
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(sanitizeName(name) || 'file')}`;
};

export const attachmentOf = (file: StoredFile): Attachment => ({
  fileId: file._id,
  name: file.name,
  contentType: file.contentType,
  size: file.size,
});

/** Types a browser would run or render as a page: served as opaque bytes, whatever was declared. */
const ACTIVE = new Set([
  'text/html',
  'application/xhtml+xml',
  'image/svg+xml',
  'text/xml',
  'application/xml',
  'text/javascript',
  'application/javascript',
]);
/** The Content-Type a download is served with. */
export const servedContentType = (contentType: string): string => (ACTIVE.has(contentType) ? 'application/octet-stream' : contentType);
