import * as z from 'zod';
import { FILE_STATUSES, REJECTED_REASONS, type Attachment, type StoredFile } from '../domain/files/file';
import type { LegacyAttachment } from '../domain/inbox/message';
import { exactly, id, time } from './common';
import { built } from '../domain/built';

export const file = /* @__PURE__ */ built(() =>
  exactly<StoredFile>()(
    z.strictObject({
      _id: id,
      name: z.string(),
      contentType: z.string(),
      size: z.number().int().min(1),
      status: z.enum(FILE_STATUSES),
      rejectedReason: z.enum(REJECTED_REASONS).nullable(),
      conversationId: id.nullable(),
      createdAt: time,
      updatedAt: time,
    }),
  ).meta({ id: 'File' }),
);

/** A presigned URL and when it stops working. */
const download = /* @__PURE__ */ built(() => z.strictObject({ url: z.url(), expiresAt: time }).meta({ id: 'FileDownload' }));

/** A file as `GET /files/{id}` answers it: with a download URL (≤ 5 minutes) once it is `ready`, else null. */
export const fileWithDownload = /* @__PURE__ */ built(() =>
  file.extend({ download: download.nullable() }).meta({ id: 'FileWithDownload' }),
);

/** The presigned POST a client sends its bytes with: every entry of `fields`, then `file`, as multipart/form-data. */
export const upload = /* @__PURE__ */ built(() =>
  z
    .strictObject({ method: z.literal('POST'), url: z.url(), fields: z.record(z.string(), z.string()), expiresAt: time })
    .meta({ id: 'FileUpload' }),
);

export const attachment = /* @__PURE__ */ built(() =>
  exactly<Attachment>()(z.strictObject({ fileId: id, name: z.string(), contentType: z.string(), size: z.number().int().min(1) })).meta({
    id: 'Attachment',
  }),
);

/** A link a message stored before files existed carries, as stored (Parley never held its bytes). */
export const legacyAttachment = /* @__PURE__ */ built(() =>
  exactly<LegacyAttachment>()(
    z.strictObject({ url: z.string(), name: z.string(), contentType: z.string(), size: z.number().int().min(0), legacy: z.literal(true) }),
  ).meta({
    id: 'LegacyAttachment',
    description: 'An attachment of a message stored before files existed: a link and metadata its client gave, answered as stored',
  }),
);
