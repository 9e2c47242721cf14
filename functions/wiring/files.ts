import { outboxPatternOf } from '../../shared/events/from-bus';
import { PENDING_OBJECT_DAYS, PENDING_OBJECT_TAG } from '../../shared/domain/files/file';
import { BULK_KEY_PREFIX } from '../../shared/domain/bulk/keys';
import { EXPORT_DAYS_LEFT_TAG, EXPORT_KEY_PREFIX, EXPORT_RETENTION_DAYS, REWRITTEN_EXPORT_DAYS } from '../../shared/domain/exports/export';
import { areaRoutes } from './route';
import type { AreaWiring } from './types';

const BASE = '/api/v1/files';
const route = areaRoutes('files');

/** Files live in one private bucket, keyed `<tenant>/<fileId>`; S3 notifies the default bus of each new object. */
export const FILES_BUCKET = 'files';

export const filesWiring = {
  buckets: [
    {
      name: FILES_BUCKET,
      nameEnv: 'FILES_BUCKET',
      description: 'Files on messages: private, keyed <tenant>/<fileId>',
      keyPrefix: '',
      expire: [
        // An object lands tagged pending and loses the tag once its file is ready: bytes never verified go after a day.
        { id: 'expire-unverified-objects', tag: PENDING_OBJECT_TAG, days: PENDING_OBJECT_DAYS },
        // An export's CSV lives as long as its job's record.
        { id: 'expire-exports', prefix: EXPORT_KEY_PREFIX, days: EXPORT_RETENTION_DAYS },
        // An export's CSV rewritten by an erasure carries the days its export has left (a rewrite is a new object).
        ...REWRITTEN_EXPORT_DAYS.map((days) => ({
          id: `expire-rewritten-exports-${days}d`,
          tag: { key: EXPORT_DAYS_LEFT_TAG, value: String(days) },
          days,
        })),
      ],
      // Downloads go through CloudFront, which adds what a presigned S3 GET cannot: nosniff, and a sandbox for anything a browser might render.
      downloads: {
        urlEnv: 'FILES_DOWNLOAD_URL',
        keyPairIdEnv: 'FILES_DOWNLOAD_KEY_PAIR_ID',
        keyParameterEnv: 'FILES_DOWNLOAD_KEY_PARAMETER',
        headers: {
          noSniff: true,
          contentSecurityPolicy: "default-src 'none'; sandbox",
          frameOptions: 'DENY',
          referrerPolicy: 'no-referrer',
          custom: [
            // Every object carries its own `attachment; filename=…` (the upload policy pins it); one that does not still downloads.
            { header: 'Content-Disposition', value: 'attachment', override: false },
            { header: 'Cache-Control', value: 'private, no-store', override: true },
          ],
        },
      },
    },
  ],
  routes: [
    // Signing a presigned POST needs the grants the upload is then made with: PutObject, and PutObjectTagging for its tag.
    route('POST', BASE, 'create-upload', 'Start an upload: a pending file and a presigned POST for its bytes (≤ 25 MiB, 15 minutes)', {
      access: { table: 'write', buckets: { [FILES_BUCKET]: ['write'] } },
    }),
    route('GET', BASE, 'list-files', 'Ready files, newest first'),
    // A download URL is signed with the bucket's download key (CloudFront reads the object): the function reads no object.
    route('GET', `${BASE}/{id}`, 'get-file', 'A file; once ready, with a download URL valid 5 minutes (always as an attachment)', {
      access: { table: 'read', buckets: { [FILES_BUCKET]: ['download'] } },
    }),
    // The bytes follow the record's deletion event (file-objects), so a crash after the commit leaves none.
    route('DELETE', `${BASE}/{id}`, 'delete-file', 'Delete a file that no message holds', { access: { table: 'write' } }),
  ],
  rules: [
    {
      name: 'verify-upload',
      // A file's new object; a bulk job's CSV (an export's or an import's: the same bucket, under its own prefix) is nothing to verify.
      pattern: {
        source: ['aws.s3'],
        'detail-type': ['Object Created'],
        detail: { object: { key: [{ 'anything-but': { prefix: BULK_KEY_PREFIX } }] } },
      },
      bucket: FILES_BUCKET,
      // Reads the first bytes only (a ranged GET), and deletes a rejected file's bytes.
      target: {
        handler: 'functions/events/verify-upload.ts',
        access: { table: 'write', buckets: { [FILES_BUCKET]: ['read', 'delete'] } },
        timeoutSeconds: 30,
      },
    },
    {
      name: 'delete-conversation-files',
      pattern: outboxPatternOf(['inbox.conversation.deleted']),
      target: { handler: 'functions/events/delete-conversation-files.ts', access: { table: 'write' }, timeoutSeconds: 60 },
    },
    {
      // Each file's object follows its record, moved by the events committed with it: a ready file's loses the
      // pending tag (the lifecycle rule then keeps it), a deleted file's goes.
      name: 'file-objects',
      pattern: outboxPatternOf(['inbox.file.ready', 'inbox.file.deleted']),
      target: { handler: 'functions/events/file-objects.ts', access: { table: 'read', buckets: { [FILES_BUCKET]: ['untag', 'delete'] } } },
    },
  ],
} satisfies AreaWiring;
