import * as z from 'zod';
import type { Unit } from '../data/unit';
import { messageTenant, queueMessage, sendMessages, type Queue } from '../queues';

/**
 * The bulk jobs' one queue and worker (one poller, not one per kind of job). `export`: write the export's
 * CSV (again from the start, when a crash interrupted it). `import`: apply the import's rows from its
 * cursor on. `erasure`: run an erasure's steps from the one recorded next. The truth is in the table; a message only says which job to look at.
 */
const bulkMessage = queueMessage(
  z.discriminatedUnion('kind', [
    z.object({ ...messageTenant, kind: z.literal('export'), exportId: z.string() }),
    z.object({ ...messageTenant, kind: z.literal('import'), importId: z.string() }),
    z.object({ ...messageTenant, kind: z.literal('erasure'), erasureId: z.string() }),
  ]),
);
export type BulkMessage = z.infer<typeof bulkMessage>;
export type ExportMessage = Extract<BulkMessage, { kind: 'export' }>;
export type ImportMessage = Extract<BulkMessage, { kind: 'import' }>;
export type ErasureMessage = Extract<BulkMessage, { kind: 'erasure' }>;

export const bulkQueue: Queue<BulkMessage> = { env: 'BULK_QUEUE_URL', name: 'bulk', message: bulkMessage };

export const enqueueBulkJob = (unit: Unit, message: BulkMessage): Promise<void> => sendMessages(unit, bulkQueue, [message]);
