import type { Tenant } from '../domain/auth/tenant';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import { STAT_NAMES, type Broadcast, type Stats } from '../domain/broadcasts/broadcast';
import { tenantField } from '../domain/auth/tenant';
import { bump, bumpCounter, readCounter, readShards, sharded } from './counters';
import { queryPage, type PageRequest } from './query';
import { conditionCheck, createItem, deleteItem, type Write } from './transact';
import { versionedUpdate } from './versioned';
import { broadcast as broadcastEntity, broadcastStats } from './registry/channels';

/** Broadcasts, their due index and their sharded stats (keys: registry/channels.ts). */
export const broadcastKey = (tenant: Tenant, id: string) => broadcastEntity.key({ tenant, id });
const key = broadcastKey;
const statsCounter = (tenant: Tenant, id: string) => sharded(broadcastStats, { tenant, id }, 8);
const COUNTER = 'broadcasts';

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
  return at ? broadcastEntity.index('gsi1', { dueAt: at, tenant, id: b._id }) : undefined;
};

const withoutStats = ({ stats: _stats, ...b }: Broadcast) => b;

export const readStats = async (tenant: Tenant, id: string): Promise<Stats> => {
  const shards = (await readShards(statsCounter(tenant, id))).map(broadcastStats.parse);
  return broadcastStats.parse(Object.fromEntries(STAT_NAMES.map((n) => [n, shards.reduce((sum, s) => sum + s[n], 0)])));
};

/** Adds to the broadcast's stats, in the transaction that settles a recipient. */
export const bumpStats = (tenant: Tenant, id: string, deltas: Partial<Stats>): Write =>
  bump(statsCounter(tenant, id), deltas as Record<string, number>);

export type BroadcastState = Omit<StoredBroadcast, 'broadcast'> & { broadcast: Omit<Broadcast, 'stats'> };

/** A broadcast item read by the caller (at `broadcastKey`), without the stats. */
export const stateOf = (item: Record<string, unknown>): BroadcastState => {
  const { version, fannedOut, ...broadcast } = broadcastEntity.parse(item);
  return { broadcast, version, fannedOut };
};

/** The broadcast's own item, without the stats (which take a Query of their shards). */
export const getBroadcastState = async (tenant: Tenant, id: string): Promise<BroadcastState | undefined> => {
  const { Item } = await dynamo().send(new GetCommand({ TableName: config().TABLE_NAME, Key: key(tenant, id), ConsistentRead: true }));
  return Item && stateOf(Item);
};

export const getBroadcast = async (tenant: Tenant, id: string): Promise<StoredBroadcast | undefined> => {
  const state = await getBroadcastState(tenant, id);
  return state && { ...state, broadcast: { ...state.broadcast, stats: await readStats(tenant, id) } };
};

/** The writes that store a new broadcast and count it. */
export const broadcastCreation = (tenant: Tenant, broadcast: Broadcast): Write[] => [
  createItem({ ...key(tenant, broadcast._id), type: 'BROADCAST', version: 1, fannedOut: false, ...withoutStats(broadcast) }),
  bumpCounter(tenant, COUNTER, 1),
];

export const broadcastsPage = async (tenant: Tenant, page: PageRequest) => {
  const [{ items, nextCursor }, total] = await Promise.all([
    queryPage({ pk: broadcastEntity.build('pk', { tenant }), skPrefix: broadcastEntity.prefix('sk', {}), newestFirst: true }, page),
    readCounter(tenant, COUNTER),
  ]);
  const broadcasts = await Promise.all(
    items.map(async (item): Promise<Broadcast> => {
      const { broadcast } = stateOf(item);
      return { ...broadcast, stats: await readStats(tenant, broadcast._id) };
    }),
  );
  return { broadcasts, total, nextCursor };
};

/** Stores `after` over the version read; `finishesFanOut` records that fan-out finished, and the due index follows both. */
export const broadcastUpdate = (tenant: Tenant, stored: StoredBroadcast, after: Broadcast, finishesFanOut: boolean): Write => {
  const index = dueIndex(tenant, after, finishesFanOut || stored.fannedOut);
  return versionedUpdate(key(tenant, after._id), stored.version, withoutStats(stored.broadcast), withoutStats(after), {
    set: { ...index, ...(finishesFanOut ? { fannedOut: true } : {}) },
    remove: index ? [] : ['gsi1pk', 'gsi1sk'],
  });
};

/** A condition that the broadcast is still sending: a recipient's send is claimed only then. */
export const stillSending = (tenant: Tenant, id: string): Write =>
  conditionCheck(key(tenant, id), { condition: '#s = :sending', names: { '#s': 'status' }, values: { ':sending': 'sending' } });

/** The writes that delete the broadcast as read (guarded by its version) and uncount it; its recipients are left to expire unlisted. */
export const broadcastDeletion = (tenant: Tenant, { broadcast, version }: StoredBroadcast): Write[] => [
  deleteItem(key(tenant, broadcast._id), { condition: 'version = :v', values: { ':v': version } }),
  bumpCounter(tenant, COUNTER, -1),
];

/** Broadcasts due to start (or whose fan-out should be running) by `now`, across tenants, for the timer. */
export const dueBroadcasts = async (now: Date, limit: number): Promise<{ tenant: Tenant; id: string }[]> => {
  const { items } = await queryPage(
    { index: 'gsi1', pk: broadcastEntity.build('gsi1pk', {}), skUpTo: `${now.toISOString()}#~` },
    { limit },
  );
  return items.map((item) => {
    const { tenant, id } = broadcastEntity.read('gsi1sk', item.gsi1sk);
    return { tenant: tenantField.parse(tenant), id };
  });
};
