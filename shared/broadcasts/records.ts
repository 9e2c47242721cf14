/** Broadcasts as stored, read, changed or deleted: apart from `service.ts`, which enqueues, so these functions carry no SQS client. */
import type { Tenant } from '../domain/auth/tenant';
import { Missing, Refused } from '../domain/refusal';
import { newBroadcast, type Broadcast, type BroadcastStatus, type CreateBroadcast } from '../domain/broadcasts/broadcast';
import { buildEnvelope, diff } from '../events/envelope';
import { objectId } from '../ids';
import { listRecipients } from '../data/broadcast-recipients';
import {
  broadcastCreation,
  broadcastDeletion,
  broadcastsPage,
  broadcastUpdate,
  getBroadcast,
  type StoredBroadcast,
} from '../data/broadcasts';
import { outboxItem } from '../data/outbox';
import type { PageRequest } from '../data/query';
import { lostRace, retryOnConflict } from '../data/retry';
import type { Write } from '../data/transact';
import type { Unit } from '../data/unit';

export const requireBroadcast = async (tenant: Tenant, id: string): Promise<StoredBroadcast> => {
  const stored = await getBroadcast(tenant, id);
  if (!stored) throw new Missing('Broadcast');
  return stored;
};

export const listBroadcasts = (tenant: Tenant, page: PageRequest) => broadcastsPage(tenant, page);

/** A draft; `channelGuard` checks its channel account exists, in the same transaction. */
export const createBroadcast = async (
  unit: Unit,
  tenant: Tenant,
  input: CreateBroadcast,
  now: Date,
  channelGuard: Write,
): Promise<Broadcast> => {
  const broadcast = newBroadcast(objectId(now.getTime()), input, now);
  await unit.commit([...broadcastCreation(tenant, broadcast), channelGuard]);
  return broadcast;
};

type CampaignEvent = `broadcast.campaign.${'scheduled' | 'sending' | 'sent' | 'failed' | 'cancelled'}`;

const EVENT_OF: Partial<Record<BroadcastStatus, CampaignEvent>> = {
  scheduled: 'broadcast.campaign.scheduled',
  sending: 'broadcast.campaign.sending',
  sent: 'broadcast.campaign.sent',
  failed: 'broadcast.campaign.failed',
  cancelled: 'broadcast.campaign.cancelled',
};

const campaignEvent = (type: CampaignEvent, tenant: Tenant, campaign: Broadcast, before: Broadcast, now: Date) =>
  outboxItem(buildEnvelope(type, tenant, { campaign }, { changes: diff({ status: before.status }, { status: campaign.status }), now }));

/**
 * Read, decide, write, conditional on the version read (re-run when another writer won). `decide`
 * returns the broadcast after the change (a new status brings its event), or undefined for no change.
 * `opts.fannedOut` records that fan-out finished; `extra` rides in the same transaction.
 */
export const mutateBroadcast = (
  unit: Unit,
  tenant: Tenant,
  id: string,
  decide: (s: StoredBroadcast) => Broadcast | undefined,
  now: Date,
  opts: { fannedOut?: true; extra?: Write[] } = {},
): Promise<StoredBroadcast> =>
  retryOnConflict(async () => {
    const stored = await requireBroadcast(tenant, id);
    const after = decide(stored);
    if (!after) return stored;
    const event = after.status !== stored.broadcast.status ? EVENT_OF[after.status] : undefined;
    await unit.commit(
      [
        broadcastUpdate(tenant, stored, after, opts.fannedOut === true),
        ...(event ? [campaignEvent(event, tenant, after, stored.broadcast, now)] : []),
        ...(opts.extra ?? []),
      ],
      lostRace,
    );
    return { broadcast: after, version: stored.version + 1, fannedOut: opts.fannedOut ?? stored.fannedOut };
  });

/** Drafts, and broadcasts that ended, can be deleted (with their recipients left to expire unlisted). */
export const deleteBroadcast = (unit: Unit, tenant: Tenant, id: string): Promise<Broadcast> =>
  retryOnConflict(async () => {
    const stored = await requireBroadcast(tenant, id);
    const { broadcast } = stored;
    if (broadcast.status === 'scheduled' || broadcast.status === 'sending') {
      throw new Refused('broadcast_still_running', `A ${broadcast.status} broadcast must be cancelled before it is deleted`);
    }
    await unit.commit(broadcastDeletion(tenant, stored), lostRace);
    return broadcast;
  });

/** A page of the broadcast's recipients, in customer-id order; the total is its recipient count. */
export const listBroadcastRecipients = async (tenant: Tenant, broadcastId: string, page: PageRequest) => {
  const { broadcast } = await requireBroadcast(tenant, broadcastId);
  const { recipients, nextCursor } = await listRecipients(tenant, broadcastId, page);
  return { recipients, total: broadcast.stats.recipients, nextCursor };
};
