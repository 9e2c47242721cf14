import type { DeliveryStatus } from '../inbox/message';

/** What a channel reports about an outgoing message (a send, a receipt or a failure). */
export type Receipt = 'sent' | 'delivered' | 'read' | 'failed';

const RANK: Partial<Record<DeliveryStatus, number>> = { pending: 0, sent: 1, delivered: 2, read: 3 };

/**
 * Whether `next` moves an outgoing message on: statuses only go forward along pending → sent → delivered
 * → read (a receipt may skip one: a read receipt implies delivery); `failed` ends a message that was not
 * yet delivered. Late or repeated receipts change nothing.
 */
export const advances = (current: DeliveryStatus | null, next: Receipt): boolean => {
  const from = current === null ? undefined : RANK[current];
  if (from === undefined) return false;
  if (next === 'failed') return from < RANK.delivered!;
  return RANK[next]! > from;
};

/** The specific event of a new status; every change also emits `channel.message.status_changed`. */
export const receiptEvent = (status: Receipt) => `channel.message.${status}` as const;

/** Sends of one message or recipient before a retryable failure becomes final, and the waits between them. */
const SEND_RETRY_DELAYS_MS = [1_000, 2_000, 4_000, 8_000] as const;
const MAX_SEND_ATTEMPTS = SEND_RETRY_DELAYS_MS.length + 1;

/** The wait before attempt `attempts + 1`, or undefined when the failure after `attempts` attempts is final. */
export const retryDelayMs = (attempts: number, retryAfterMs?: number): number | undefined => {
  if (attempts >= MAX_SEND_ATTEMPTS) return undefined;
  return Math.max(SEND_RETRY_DELAYS_MS[attempts - 1] ?? 0, Math.min(retryAfterMs ?? 0, 60_000));
};
