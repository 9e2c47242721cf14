import type { Receipt } from '../channels/delivery';
import type { RecipientStatus, Stats } from './broadcast';

/** How a receipt moves a recipient that was sent to: from which statuses, and what it adds to the stats. */
export const RECEIPT_MOVES: Record<
  Exclude<Receipt, 'sent'>,
  { from: RecipientStatus[]; stats: (from: RecipientStatus) => Partial<Stats> }
> = {
  delivered: { from: ['sent'], stats: () => ({ delivered: 1 }) },
  read: { from: ['sent', 'delivered'], stats: (from) => (from === 'sent' ? { delivered: 1, read: 1 } : { read: 1 }) },
  failed: { from: ['sent'], stats: () => ({ sent: -1, failed: 1 }) },
};

/** What a send adds to the stats when the provider reported `receipts` with it: sent, then each receipt's move. */
export const sentStats = (receipts: readonly ('delivered' | 'read')[]): Partial<Stats> => {
  const stats: Partial<Stats> = { sent: 1 };
  let from: RecipientStatus = 'sent';
  for (const status of receipts) {
    for (const [name, n] of Object.entries(RECEIPT_MOVES[status].stats(from)) as [keyof Stats, number][])
      stats[name] = (stats[name] ?? 0) + n;
    from = status;
  }
  return stats;
};
