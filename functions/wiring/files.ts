import { outboxPatternOf } from '../../shared/events/from-bus';
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
    },
  ],
  routes: [
    // Signing a presigned POST needs the PutObject grant the upload is then made with.
    route('POST', BASE, 'create-upload', 'Start an upload: a pending file and a presigned POST for its bytes (≤ 25 MiB, 15 minutes)', {
      access: { table: 'write', buckets: { [FILES_BUCKET]: ['write'] } },
    }),
    route('GET', BASE, 'list-files', 'Ready files, newest first'),
    route('GET', `${BASE}/{id}`, 'get-file', 'A file; once ready, with a download URL valid 5 minutes (always as an attachment)', {
      access: { table: 'read', buckets: { [FILES_BUCKET]: ['read'] } },
    }),
    route('DELETE', `${BASE}/{id}`, 'delete-file', 'Delete a file that no message holds', {
      access: { table: 'write', buckets: { [FILES_BUCKET]: ['delete'] } },
    }),
  ],
  rules: [
    {
      name: 'verify-upload',
      pattern: { source: ['aws.s3'], 'detail-type': ['Object Created'] },
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
      target: {
        handler: 'functions/events/delete-conversation-files.ts',
        access: { table: 'write', buckets: { [FILES_BUCKET]: ['delete'] } },
        timeoutSeconds: 60,
      },
    },
  ],
} satisfies AreaWiring;
