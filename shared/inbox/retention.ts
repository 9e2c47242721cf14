import { tenantOf, type Tenant } from '../domain/auth/tenant';
import { retentionCutoff, type SweepCounts } from '../domain/inbox/retention';
import { closedBefore, getClosedConversation } from '../data/conversation-purge';
import { backfillState, closedListPage, indexClosed, saveBackfillState } from '../data/conversation-backfill';
import { listRetainingWorkspaces } from '../data/workspaces';
import { timeLeft } from '../observability/deadline';
import { finishPurge, purgeClosedConversation } from './purge-conversation';
import type { Unit } from '../data/unit';

/** Index entries one run handles at most: a run is bounded, and the next one continues where the index says. */
const SWEEP_BATCH = 200;
/** A run starts no purge with less than this left of its invocation (a conversation's files and messages take a few calls). */
const RESERVE_MS = 20_000;

/** Closed conversations the backfill looks at in one run, at most (one read each, and a write for those it indexes). */
const BACKFILL_BATCH = 1000;
/** The backfill starts no page with less than this left: the sweep after it keeps most of the invocation. */
const BACKFILL_RESERVE_MS = 150_000;

/**
 * The closed index's one-off backfill, run by the sweep before it reads the index: in each tenant it sweeps,
 * the closed conversations that have no entry (closed before the index existed) are indexed at their last
 * change (`updatedAt`: the latest they can have closed, so none is deleted before its time), a page at a time,
 * at most `budget` a run, resuming from the cursor saved after each page. A tenant done is a single read.
 * Answers how many it indexed and whether work is left.
 */
const backfillClosedIndex = async (unit: Unit, tenants: Tenant[], budget: number): Promise<{ indexed: number; more: boolean }> => {
  let [indexed, left] = [0, budget];
  for (const tenant of tenants) {
    let state = await backfillState(tenant);
    while (!state.done) {
      if (left === 0 || timeLeft() < BACKFILL_RESERVE_MS) return { indexed, more: true };
      const page = await closedListPage(tenant, Math.min(left, 100), state.cursor);
      left -= page.ids.length;
      for (const id of page.ids) {
        const found = await getClosedConversation(tenant, id);
        if (found && found.closedAt === undefined && (await indexClosed(unit, tenant, found.stored, found.stored.conversation.updatedAt))) {
          indexed += 1;
        }
      }
      state = page.nextCursor ? { done: false, cursor: page.nextCursor } : { done: true };
      await saveBackfillState(unit, tenant, state);
    }
  }
  return { indexed, more: false };
};

/**
 * The retention sweep: in each workspace that sets a retention, each mode's closed conversations that closed
 * before its cutoff are purged (or an unfinished purge finished), oldest first, at most `batch` index
 * entries a run. Each entry is a whole purge, so a run cut short leaves every conversation whole or gone.
 * The backfill of the index runs first, so a conversation it indexes past the cutoff goes in the same run.
 */
export const sweepRetention = async (unit: Unit, now: Date, batch = SWEEP_BATCH, backfillBatch = BACKFILL_BATCH): Promise<SweepCounts> => {
  const retaining = (await listRetainingWorkspaces()).filter((w) => w.retention.closedConversationDays !== null);
  const backfill = await backfillClosedIndex(
    unit,
    retaining.flatMap((w) => [tenantOf(w._id, true), tenantOf(w._id, false)]),
    backfillBatch,
  );
  const counts: SweepCounts = { workspaces: 0, conversations: 0, messages: 0, files: 0, indexed: backfill.indexed, more: false };
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
        ? { conversations: 0, ...(await finishPurge(unit, tenant, entry.conversationId, now)) }
        : await purgeClosedConversation(unit, tenant, entry.conversationId, cutoff, now);
      counts.conversations += purged.conversations;
      counts.messages += purged.messages;
      counts.files += purged.files;
    }
    if (left === 0) counts.more = true;
  };
  const sweepAll = async () => {
    for (const workspace of retaining) {
      counts.workspaces += 1;
      const cutoff = retentionCutoff(now, workspace.retention.closedConversationDays!);
      for (const livemode of [true, false]) {
        if (left === 0 || counts.more) return;
        await sweepTenant(tenantOf(workspace._id, livemode), cutoff);
      }
    }
  };
  await sweepAll();
  return { ...counts, more: counts.more || backfill.more };
};
