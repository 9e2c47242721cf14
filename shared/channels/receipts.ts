import type { Tenant } from '../domain/auth/tenant';
import type { Receipt } from '../domain/channels/delivery';
import type { Recipient } from '../domain/broadcasts/broadcast';
import { RECEIPT_MOVES } from '../domain/broadcasts/receipts';
import { settleRecipient } from '../data/broadcast-recipients';

/**
 * A channel's receipt for a broadcast recipient (the sandbox's own, or an `api` status callback). Each
 * possible prior status is tried in turn, each conditional on it, so a receipt counts once.
 */
export const recipientReceipt = async (
  tenant: Tenant,
  broadcastId: string,
  customerId: string,
  status: Exclude<Receipt, 'sent'>,
  reason: string | undefined,
  now: Date,
): Promise<Recipient | undefined> => {
  const move = RECEIPT_MOVES[status];
  for (const from of move.from) {
    const after = await settleRecipient(
      tenant,
      broadcastId,
      customerId,
      { from, to: status, reason: status === 'failed' ? (reason ?? 'provider_reported') : null, stats: move.stats(from) },
      now,
    );
    if (after) return after;
  }
  return undefined;
};
