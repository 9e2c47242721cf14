import { BULK_KEY_PREFIX } from '../../shared/domain/bulk/keys';
import { FILES_BUCKET } from './files';
import type { AreaWiring, QueueSpec } from './types';

/** The bulk jobs' queue: exports, imports and erasures share it and its one worker (one poller's idle cost, not one per kind of job). */
export const BULK_QUEUE = 'bulk';

/**
 * A route records the job and queues it (an export at once, an import once S3 reports its CSV); the worker
 * writes an export's CSV into the files bucket (under `bulk/exports/`), or reads an import's (under
 * `bulk/imports/`) and applies its rows, or runs an erasure's steps (deleting the files of the customer's
 * conversations, hence its delete grant; listing the tenant's bulk CSVs to rewrite them without the customer,
 * hence its listing of `bulk/`). Visibility 30 min (6x the worker's 5 min), so a job runs in one
 * worker at a time unless that worker died; a job that keeps failing is dead-lettered after 5.
 */
const queues: QueueSpec[] = [
  {
    name: BULK_QUEUE,
    urlEnv: 'BULK_QUEUE_URL',
    visibilityTimeoutSeconds: 1800,
    retentionDays: 4,
    dlq: { name: `${BULK_QUEUE}-dlq`, urlEnv: 'BULK_DLQ_URL', maxReceiveCount: 5 },
    consumer: {
      handler: 'functions/queues/run-bulk-job.ts',
      // It queues the rest of an import that outlasts one invocation (shared/imports/run.ts), hence its send.
      access: {
        table: 'write',
        queues: [BULK_QUEUE],
        buckets: { [FILES_BUCKET]: ['read', 'write', 'delete', `list:${BULK_KEY_PREFIX}`] },
      },
      timeoutSeconds: 300,
      memoryMb: 512,
      batchSize: 1,
      maxConcurrency: 2,
    },
  },
];

export const bulkWiring = { queues } satisfies AreaWiring;
