import { tenantOf, type Tenant } from '../domain/auth/tenant';
import { retentionCutoff, type SweepCounts } from '../domain/inbox/retention';
import { closedBefore } from '../data/conversation-purge';
import { listRetainingWorkspaces } from '../data/workspaces';
import { timeLeft } from '../observability/deadline';
import { finishPurge, purgeClosedConversation } from './purge-conversation';

/** Index entries one run handles at most: a run is bounded, and the next one continues where the index says. */
const SWEEP_BATCH = 200;
/** A run starts no purge with less than this left of its invocation (a conversation's files and messages take a few calls). */
const RESERVE_MS = 20_000;

/**
 * The retention sweep: in each workspace that sets a retention, each mode's closed conversations that closed
 * before its cutoff are purged (or an unfinished purge finished), oldest first, at most `batch` index
 * entries a run. Each entry is a whole purge, so a run cut short leaves every conversation whole or gone.
 */
export const sweepRetention = async (now: Date, batch = SWEEP_BATCH): Promise<SweepCounts> => {
  const counts: SweepCounts = { workspaces: 0, conversations: 0, messages: 0, files: 0, more: false };
  let left = batch;
  const sweepTenant = async (tenant: Tenant, cutoff: string) => {
    const entries = await closedBefore(tenant, cutoff, left);
    for (const entry of entries) {
      if (timeLeft() < RESERVE_MS) {
        counts.more = true;
        return;
      }
      left -= 1;
      const purged = entry.purging
        ? { conversations: 0, ...(await finishPurge(tenant, entry.conversationId, now)) }
        : await purgeClosedConversation(tenant, entry.conversationId, cutoff, now);
      counts.conversations += purged.conversations;
      counts.messages += purged.messages;
      counts.files += purged.files;
    }
    if (left === 0) counts.more = true;
  };
  for (const workspace of await listRetainingWorkspaces()) {
    const days = workspace.retention.closedConversationDays;
    if (days === null) continue;
    counts.workspaces += 1;
    const cutoff = retentionCutoff(now, days);
    for (const livemode of [true, false]) {
      if (left === 0 || counts.more) return counts;
      await sweepTenant(tenantOf(workspace._id, livemode), cutoff);
    }
  }
  return counts;
};
