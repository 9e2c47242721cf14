import { IMPORT_KEY_PREFIX } from '../../shared/domain/imports/import';
import { areaRoutes } from './route';
import { BULK_QUEUE } from './bulk';
import { FILES_BUCKET } from './files';
import type { Access, AreaWiring } from './types';

// Signing the presigned POST of the CSV needs the grants the upload is then made with: PutObject, and PutObjectTagging for its tag.
const request: Access = { table: 'write', buckets: { [FILES_BUCKET]: ['write'] } };

const contacts = areaRoutes('contacts');
const crm = areaRoutes('crm');
const CUSTOMERS = '/api/v1/contacts/customers/imports';
const LEADS = '/api/v1/crm/leads/imports';

/**
 * CSV imports of customers and leads: a route records the import and answers a presigned POST of its CSV;
 * S3's notification of the object queues it on the bulk queue (`bulk.ts`), whose worker applies the rows.
 */
export const importsWiring = {
  routes: [
    contacts(
      'POST',
      CUSTOMERS,
      'create-customers-import',
      'Import customers from a CSV (upserted by email or phone): the import and a presigned POST of its CSV',
      {
        access: request,
      },
    ),
    contacts('GET', `${CUSTOMERS}/{id}`, 'get-customers-import', 'A customers import: its status and counts'),
    contacts(
      'GET',
      `${CUSTOMERS}/{id}/errors`,
      'get-customers-import-errors',
      'A customers import’s failed rows as a CSV: line, reason and the row',
    ),
    crm('POST', LEADS, 'create-leads-import', 'Import leads into a pipeline from a CSV: the import and a presigned POST of its CSV', {
      access: request,
    }),
    crm('GET', `${LEADS}/{id}`, 'get-leads-import', 'A leads import: its status and counts'),
    crm('GET', `${LEADS}/{id}/errors`, 'get-leads-import-errors', 'A leads import’s failed rows as a CSV: line, reason and the row'),
  ],
  rules: [
    {
      // An import's CSV landed: the import is queued for the bulk worker.
      name: 'start-import',
      pattern: { source: ['aws.s3'], 'detail-type': ['Object Created'], detail: { object: { key: [{ prefix: IMPORT_KEY_PREFIX }] } } },
      bucket: FILES_BUCKET,
      target: { handler: 'functions/events/start-import.ts', access: { table: 'write', queues: [BULK_QUEUE] }, timeoutSeconds: 30 },
    },
  ],
} satisfies AreaWiring;
