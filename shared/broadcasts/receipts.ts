import type { Tenant } from '../domain/auth/tenant';
import type { Receipt } from '../domain/channels/delivery';
import type { Recipient, RecipientStatus, Stats } from '../domain/broadcasts/broadcast';
import { settleRecipient } from '../data/broadcast-recipients';

/** How a receipt moves a recipient that was sent to: from which statuses, and what it adds to the stats. */
const MOVES: Record<Exclude<Receipt, 'sent'>, { from: RecipientStatus[]; stats: (from: RecipientStatus) => Partial<Stats> }> = {
  delivered: { from: ['sent'], stats: () => ({ delivered: 1 }) },
  read: { from: ['sent', 'delivered'], stats: (from) => (from === 'sent' ? { delivered: 1, read: 1 } : { read: 1 }) },
  failed: { from: ['sent'], stats: () => ({ sent: -1, failed: 1 }) },
};

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
  const move = MOVES[status];
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

/** What a send adds to the stats when the provider reported `receipts` with it: sent, then each receipt's move. */
export const sentStats = (receipts: readonly ('delivered' | 'read')[]): Partial<Stats> => {
  const stats: Partial<Stats> = { sent: 1 };
  let from: RecipientStatus = 'sent';
  for (const status of receipts) {
    for (const [name, n] of Object.entries(MOVES[status].stats(from)) as [keyof Stats, number][]) stats[name] = (stats[name] ?? 0) + n;
    from = status;
  }
  return stats;
};
