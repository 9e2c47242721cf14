import type { Booking } from '../scheduling/booking';

/**
 * The erasure of one customer's personal data (GDPR art. 17): a job of ordered steps, each idempotent, run by
 * the bulk worker. `step` is the index of the next step to run; a step's removals are counted in the same
 * transaction as each removal, so the counts are exact however often a crash makes a step run again.
 */
export const ERASURE_STEPS = [
  // Links are cleared first, so nothing the later steps delete is still pointed at.
  'leads',
  'tasks',
  'activities',
  'bookings',
  'broadcastRecipients',
  'conversations',
  // Before the customer goes: a CSV's rows, and an execution's starting event, are matched by its email and
  // phone as well as its id.
  'bulkCsvs',
  'workflowExecutions',
  'customer',
  'deliveries',
  'events',
  'idempotencyRecords',
] as const;
export type ErasureStep = (typeof ERASURE_STEPS)[number];

type ErasureStatus = 'queued' | 'running' | 'completed' | 'failed';

/**
 * What each step removed or scrubbed: the conversation step's messages and files are counted apart, and the
 * bulk CSVs step counts the CSVs it rewrote (`bulkCsvs`) and the rows it removed or emptied (`csvRows`).
 */
export type ErasureCounts = Record<ErasureStep | 'messages' | 'files' | 'csvRows', number>;

export interface Erasure {
  _id: string;
  customerId: string;
  status: ErasureStatus;
  counts: ErasureCounts;
  createdAt: string;
  completedAt: string | null;
}

const COUNTED = [...ERASURE_STEPS, 'messages', 'files', 'csvRows'] as const satisfies readonly (keyof ErasureCounts)[];

/** Every count at 0 (an erasure recorded before a step existed reads that step's counts as 0). */
export const zeroErasureCounts = (): ErasureCounts => Object.fromEntries(COUNTED.map((k) => [k, 0])) as ErasureCounts;

export const newErasure = (id: string, customerId: string, now: Date): Erasure => ({
  _id: id,
  customerId,
  status: 'queued',
  counts: zeroErasureCounts(),
  createdAt: now.toISOString(),
  completedAt: null,
});

/** A booking as it stays once its customer is erased: the team's time slot, with nothing the customer said or is. */
const ERASED_TITLE = 'Erased';

type Scrubbable = Pick<Booking, 'title' | 'notes' | 'location' | 'cancellationReason' | 'updatedAt'>;

export const isScrubbed = (b: Scrubbable): boolean =>
  b.title === ERASED_TITLE && b.notes === null && b.location === null && b.cancellationReason === null;

export const scrubbed = <B extends Scrubbable>(b: B, now: Date): B => ({
  ...b,
  title: ERASED_TITLE,
  notes: null,
  location: null,
  cancellationReason: null,
  updatedAt: now.toISOString(),
});
