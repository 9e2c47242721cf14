import * as z from 'zod';
import type { Erasure } from '../domain/erasure/erasure';
import { exactly, id, time } from './common';
import { built } from '../domain/built';

const count = /* @__PURE__ */ built(() => z.number().int().min(0));

export const erasure = /* @__PURE__ */ built(() =>
  exactly<Erasure>()(
    z.strictObject({
      _id: id,
      customerId: id,
      status: z.enum(['queued', 'running', 'completed', 'failed']),
      counts: z
        .strictObject({
          leads: count.describe('Leads whose link to the customer was cleared (the lead stays)'),
          tasks: count.describe('Tasks whose link to the customer was cleared'),
          activities: count.describe('Activities whose link to the customer was cleared'),
          bookings: count.describe('Bookings scrubbed: title, notes and location cleared'),
          broadcastRecipients: count.describe('Broadcast recipient entries deleted'),
          conversations: count.describe('Conversations deleted'),
          messages: count.describe('Messages (and notes) deleted with them'),
          files: count.describe('Files deleted with them, bytes and records'),
          bulkCsvs: count.describe('Export and import CSVs rewritten without the customer'),
          csvRows: count.describe(
            "Rows about the customer in them: removed from a customers export, emptied in an import's CSV or a leads export, and failed import rows scrubbed",
          ),
          workflowExecutions: count.describe(
            'Workflow executions whose starting event named the customer, deleted with their steps, finished or not',
          ),
          customer: count.describe('1 once the customer and its unique values are deleted'),
          deliveries: count.describe('Webhook deliveries (with their response bodies) of the events deleted'),
          events: count.describe('Stored events that named the customer, its conversations or files, deleted'),
          idempotencyRecords: count.describe('Recorded idempotent answers that named them, deleted'),
        })
        .describe('What was removed so far, each counted once'),
      createdAt: time,
      completedAt: time.nullable(),
    }),
  ).meta({ id: 'Erasure' }),
);
