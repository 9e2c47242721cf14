import { areaRoutes } from './route';
import { FILES_BUCKET } from './files';
import { BULK_QUEUE } from './bulk';
import type { Access, AreaWiring } from './types';

const request: Access = { table: 'write', queues: [BULK_QUEUE] };
// The download is a signed URL of the files bucket's CDN (nosniff, attachment): the route reads no object.
const read: Access = { table: 'read', buckets: { [FILES_BUCKET]: ['download'] } };

const contacts = areaRoutes('contacts');
const crm = areaRoutes('crm');
const CUSTOMERS = '/api/v1/contacts/customers/exports';
const LEADS = '/api/v1/crm/leads/exports';

/** Exports of customers and leads: a route records the job and queues it on the bulk queue (`bulk.ts`). */
export const exportsWiring = {
  routes: [
    contacts('POST', CUSTOMERS, 'create-customers-export', 'Export customers (the list filters) to a CSV, written in the background', {
      access: request,
    }),
    contacts(
      'GET',
      `${CUSTOMERS}/{id}`,
      'get-customers-export',
      'A customers export; once completed, a download of its CSV valid 5 minutes',
      {
        access: read,
      },
    ),
    crm('POST', LEADS, 'create-leads-export', 'Export leads (the list filters) to a CSV, written in the background', { access: request }),
    crm('GET', `${LEADS}/{id}`, 'get-leads-export', 'A leads export; once completed, a download of its CSV valid 5 minutes', {
      access: read,
    }),
  ],
} satisfies AreaWiring;
