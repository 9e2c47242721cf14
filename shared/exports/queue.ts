import * as z from 'zod';
import { messageTenant, queueMessage, sendMessages, type Queue } from '../queues';

/** `run`: write the export's CSV (again from the start, when a crash interrupted it). The truth is in the table. */
const exportMessage = queueMessage(z.object({ ...messageTenant, exportId: z.string() }));
export type ExportMessage = z.infer<typeof exportMessage>;

export const exportQueue: Queue<ExportMessage> = { env: 'EXPORT_QUEUE_URL', name: 'export', message: exportMessage };

export const enqueueExport = (message: ExportMessage): Promise<void> => sendMessages(exportQueue, [message]);
