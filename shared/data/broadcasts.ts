import type { Tenant } from '../domain/auth/tenant';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import { objectId } from '../ids';
import { buildEnvelope, diff } from '../events/envelope';
import { Refused, Missing } from '../domain/refusal';
import {
  newBroadcast,
  STAT_NAMES,
  type Broadcast,
  type BroadcastStatus,
  type CreateBroadcast,
  type Stats,
} from '../domain/broadcasts/broadcast';
import { bump, bumpCounter, readCounter, type Counter } from './counters';
import { collect, queryAll, queryPage, type PageRequest } from './query';
import { fromIndexSk, indexSk, tenantPk } from './keys';
import { outboxItem } from './outbox';
import { lostRace, retryOnConflict } from './retry';
import { conditionCheck, createItem, deleteItem, transact, type Write } from './transact';
import { versionedUpdate } from './versioned';
import { K } from './registry/registry';
import { itemCodec } from './codec';
import { campaign } from '../views/broadcasts';

/**
 * Broadcasts: pk=<tenant> sk=BROADCAST#<id>, counted by the workspace counter `broadcasts`. One waiting
 * to start, or started and not yet fanned out, is in the timer's index gsi1pk=BROADCASTS_DUE
 * gsi1sk=<due time>#<tenant>#<id>. Its stats are a sharded counter (recipients are settled in parallel)
 * and its recipients a partition, pk=<tenant>#BROADCAST#<id>.
 */
const DUE_INDEX = K.BROADCASTS_DUE;
export const broadcastKey = (tenant: Tenant, id: string) => ({ pk: tenantPk(tenant), sk: `${K.BROADCAST}#${id}` });
const key = broadcastKey;
export const broadcastPartition = (tenant: Tenant, id: string) => tenantPk(tenant, K.BROADCAST, id);
const statsCounter = (tenant: Tenant, id: string): Counter => ({ pk: broadcastPartition(tenant, id), sk: K.STATS, shards: 8 });
const COUNTER = 'broadcasts';

const withoutStatsOf: (item: Record<string, unknown>) => Omit<Broadcast, 'stats'> = itemCodec(campaign.omit({ stats: true }));
const statsView = campaign.shape.stats;

export interface StoredBroadcast {
  broadcast: Broadcast;
  version: number;
  /** Every recipient has been written and enqueued. */
  fannedOut: boolean;
}

const dueAt = (b: Broadcast, fannedOut: boolean): string | undefined =>
  b.status === 'scheduled' ? b.scheduledAt! : b.status === 'sending' && !fannedOut ? b.startedAt! : undefined;
const dueIndex = (tenant: Tenant, b: Broadcast, fannedOut: boolean) => {
  const at = dueAt(b, fannedOut);
  return at ? { gsi1pk: DUE_INDEX, gsi1sk: indexSk(at, tenant, b._id) } : undefined;
};

const withoutStats = ({ stats: _stats, ...b }: Broadcast) => b;

export const readStats = async (tenant: Tenant, id: string): Promise<Stats> => {
  const shards = await collect(queryAll({ pk: statsCounter(tenant, id).pk, skPrefix: `${K.STATS}#`, consistent: true }));
  return statsView.parse(
    Object.fromEntries(STAT_NAMES.map((n) => [n, shards.reduce((sum, s) => sum + ((s[n] as number | undefined) ?? 0), 0)])),
  );
};

/** Adds to the broadcast's stats, in the transaction that settles a recipient. */
export const bumpStats = (tenant: Tenant, id: string, deltas: Partial<Stats>): Write =>
  bump(statsCounter(tenant, id), deltas as Record<string, number>);

export type BroadcastState = Omit<StoredBroadcast, 'broadcast'> & { broadcast: Omit<Broadcast, 'stats'> };

/** A broadcast item read by the caller (at `broadcastKey`), without the stats. */
export const stateOf = (item: Record<string, unknown>): BroadcastState => ({
  broadcast: withoutStatsOf(item),
  version: item.version as number,
  fannedOut: item.fannedOut === true,
});

/** The broadcast's own item, without the stats (which take a Query of their shards). */
export const getBroadcastState = async (tenant: Tenant, id: string): Promise<BroadcastState | undefined> => {
  const { Item } = await dynamo().send(new GetCommand({ TableName: config().TABLE_NAME, Key: key(tenant, id), ConsistentRead: true }));
  return Item && stateOf(Item);
};

export const getBroadcast = async (tenant: Tenant, id: string): Promise<StoredBroadcast | undefined> => {
  const state = await getBroadcastState(tenant, id);
  return state && { ...state, broadcast: { ...state.broadcast, stats: await readStats(tenant, id) } };
};

export const requireBroadcast = async (tenant: Tenant, id: string): Promise<StoredBroadcast> => {
  const stored = await getBroadcast(tenant, id);
  if (!stored) throw new Missing('Broadcast');
  return stored;
};

const campaignEvent = (
  type: `broadcast.campaign.${'scheduled' | 'sending' | 'sent' | 'failed' | 'cancelled'}`,
  tenant: Tenant,
  campaign: Broadcast,
  before: Broadcast,
  now: Date,
) => outboxItem(buildEnvelope(type, tenant, { campaign }, { changes: diff({ status: before.status }, { status: campaign.status }), now }));

export const createBroadcast = async (tenant: Tenant, input: CreateBroadcast, now: Date, channelGuard: Write): Promise<Broadcast> => {
  const broadcast = newBroadcast(objectId(now.getTime()), input, now);
  await transact([
    createItem({ ...key(tenant, broadcast._id), type: 'BROADCAST', version: 1, fannedOut: false, ...withoutStats(broadcast) }),
    bumpCounter(tenant, COUNTER, 1),
    channelGuard,
  ]);
  return broadcast;
};

export const listBroadcasts = async (tenant: Tenant, page: PageRequest) => {
  const [{ items, nextCursor }, total] = await Promise.all([
    queryPage({ pk: tenantPk(tenant), skPrefix: `${K.BROADCAST}#`, newestFirst: true }, page),
    readCounter(tenant, COUNTER),
  ]);
  const broadcasts = await Promise.all(
    items.map(async (item): Promise<Broadcast> => ({ ...withoutStatsOf(item), stats: await readStats(tenant, item._id as string) })),
  );
  return { broadcasts, total, nextCursor };
};

const EVENT_OF: Partial<Record<BroadcastStatus, Parameters<typeof campaignEvent>[0]>> = {
  scheduled: 'broadcast.campaign.scheduled',
  sending: 'broadcast.campaign.sending',
  sent: 'broadcast.campaign.sent',
  failed: 'broadcast.campaign.failed',
  cancelled: 'broadcast.campaign.cancelled',
};

/**
 * Read, decide, write, conditional on the version read (re-run when another writer won). `decide`
 * returns the broadcast after the change (a new status brings its event), or undefined for no change.
 * `opts.fannedOut` records that fan-out finished; `extra` rides in the same transaction.
 */
export const mutateBroadcast = (
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
    const fannedOut = opts.fannedOut ?? stored.fannedOut;
    const index = dueIndex(tenant, after, fannedOut);
    const update = versionedUpdate(key(tenant, id), stored.version, withoutStats(stored.broadcast), withoutStats(after), {
      set: { ...index, ...(opts.fannedOut ? { fannedOut: true } : {}) },
      remove: index ? [] : ['gsi1pk', 'gsi1sk'],
    });
    const event = after.status !== stored.broadcast.status ? EVENT_OF[after.status] : undefined;
    await transact(
      [update, ...(event ? [campaignEvent(event, tenant, after, stored.broadcast, now)] : []), ...(opts.extra ?? [])],
      lostRace,
    );
    return { broadcast: after, version: stored.version + 1, fannedOut };
  });

/** A condition that the broadcast is still sending: a recipient's send is claimed only then. */
export const stillSending = (tenant: Tenant, id: string): Write =>
  conditionCheck(key(tenant, id), { condition: '#s = :sending', names: { '#s': 'status' }, values: { ':sending': 'sending' } });

/** Drafts, and broadcasts that ended, can be deleted (with their recipients left to expire unlisted). */
export const deleteBroadcast = (tenant: Tenant, id: string): Promise<Broadcast> =>
  retryOnConflict(async () => {
    const { broadcast, version } = await requireBroadcast(tenant, id);
    if (broadcast.status === 'scheduled' || broadcast.status === 'sending') {
      throw new Refused('broadcast_still_running', `A ${broadcast.status} broadcast must be cancelled before it is deleted`);
    }
    await transact(
      [deleteItem(key(tenant, id), { condition: 'version = :v', values: { ':v': version } }), bumpCounter(tenant, COUNTER, -1)],
      lostRace,
    );
    return broadcast;
  });

/** Broadcasts due to start (or whose fan-out should be running) by `now`, across tenants, for the timer. */
export const dueBroadcasts = async (now: Date, limit: number): Promise<{ tenant: Tenant; id: string }[]> => {
  const { items } = await queryPage({ index: 'gsi1', pk: DUE_INDEX, skUpTo: `${now.toISOString()}#~` }, { limit });
  return items.map((item) => fromIndexSk(item.gsi1sk as string));
};
