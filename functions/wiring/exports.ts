import { areaRoutes } from './route';
import { FILES_BUCKET } from './files';
import type { Access, AreaWiring, QueueSpec } from './types';

const QUEUE = 'export';
const request: Access = { table: 'write', queues: [QUEUE] };
const read: Access = { table: 'read', buckets: { [FILES_BUCKET]: ['read'] } };

const contacts = areaRoutes('contacts');
const crm = areaRoutes('crm');
const CUSTOMERS = '/api/v1/contacts/customers/exports';
const LEADS = '/api/v1/crm/leads/exports';

/**
 * Exports of customers and leads: a route records the job and queues it; the worker writes the CSV into the
 * files bucket (under `exports/`) page by page. Visibility 30 min (6x the worker's 5 min), so an export is
 * written by one worker at a time unless that worker died; a job that keeps failing is dead-lettered after 5.
 */
const queues: QueueSpec[] = [
  {
    name: QUEUE,
    urlEnv: 'EXPORT_QUEUE_URL',
    visibilityTimeoutSeconds: 1800,
    retentionDays: 4,
    dlq: { name: `${QUEUE}-dlq`, urlEnv: 'EXPORT_DLQ_URL', maxReceiveCount: 5 },
    consumer: {
      handler: 'functions/queues/run-export.ts',
      access: { table: 'write', buckets: { [FILES_BUCKET]: ['write'] } },
      timeoutSeconds: 300,
      memoryMb: 512,
      batchSize: 1,
      maxConcurrency: 2,
    },
  },
];

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
  queues,
} satisfies AreaWiring;
