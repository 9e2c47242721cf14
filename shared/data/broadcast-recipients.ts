import type { Tenant } from '../domain/auth/tenant';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import { buildEnvelope } from '../events/envelope';
import type { Recipient, RecipientStatus, Stats } from '../domain/broadcasts/broadcast';
import { bumpStats, stillSending } from './broadcasts';
import { outboxItem } from './outbox';
import { queryAll, queryPage, type PageRequest } from './query';
import { retryOnConflict } from './retry';
import { createItem, updateItem, type Write } from './transact';
import { direct, removeOnce } from './unit';
import { broadcast, broadcastRecipient } from './registry/channels';

/** A broadcast's recipients, one per customer, with their send state (keys: registry/channels.ts). */
export const recipientKey = (tenant: Tenant, broadcastId: string, customerId: string) =>
  broadcastRecipient.key({ tenant, broadcastId, customerId });
const fromItem = (item: Record<string, unknown>): Recipient => storedOf(item).recipient;

export interface StoredRecipient {
  recipient: Recipient;
  attempts: number;
  leaseUntil?: number;
  notBefore?: number;
}

/** A recipient item read by the caller (at `recipientKey`). */
export const storedOf = (item: Record<string, unknown>): StoredRecipient => {
  const { attempts, leaseUntil, notBefore, ...recipient } = broadcastRecipient.parse(item);
  return { recipient, attempts, leaseUntil, notBefore };
};

const getRecipient = async (tenant: Tenant, broadcastId: string, customerId: string): Promise<StoredRecipient | undefined> => {
  const { Item } = await dynamo().send(
    new GetCommand({ TableName: config().TABLE_NAME, Key: recipientKey(tenant, broadcastId, customerId), ConsistentRead: true }),
  );
  return Item && storedOf(Item);
};

export const listRecipients = async (tenant: Tenant, broadcastId: string, page: PageRequest) => {
  const { items, nextCursor } = await queryPage(
    { pk: broadcastRecipient.build('pk', { tenant, broadcastId }), skPrefix: broadcastRecipient.prefix('sk', {}) },
    page,
  );
  return { recipients: items.map(fromItem), nextCursor };
};

class Exists extends Error {}
class NotHeld extends Error {}

/** Writes per transaction, one under DynamoDB's 100 to leave room for the stats counter. */
const MAX_WRITES = 99;

/** Splits `parts` into runs whose writes fit one transaction beside the stats counter. */
const transactionsOf = <T extends { writes: Write[] }>(parts: T[]): T[][] => {
  const runs: { parts: T[]; size: number }[] = [];
  for (const part of parts) {
    const last = runs.at(-1);
    if (last && last.size + part.writes.length <= MAX_WRITES) {
      last.parts.push(part);
      last.size += part.writes.length;
    } else runs.push({ parts: [part], size: part.writes.length });
  }
  return runs.map((r) => r.parts);
};

const sumStats = (all: Partial<Stats>[]): Partial<Stats> => {
  const sum: Partial<Stats> = {};
  for (const stats of all) for (const [name, n] of Object.entries(stats) as [keyof Stats, number][]) sum[name] = (sum[name] ?? 0) + n;
  return sum;
};

interface Part {
  writes: Write[];
  stats: Partial<Stats>;
  /** The part committed on its own, when its run's transaction failed on some part's condition. */
  alone: () => Promise<unknown>;
}

/**
 * Commits `parts` in transactions run side by side, each with one bump of their summed stats; when a
 * condition of one part fails (`NotHeld`, `Exists`), that transaction's parts are committed one by one
 * instead, so each applies or not on its own. A transaction that lost a race with another writer is simply
 * run again.
 */
const commitEach = async (tenant: Tenant, broadcastId: string, parts: Part[]): Promise<void> => {
  await Promise.all(
    transactionsOf(parts).map(async (run) => {
      try {
        await retryOnConflict(() =>
          direct.commit([...run.flatMap((p) => p.writes), bumpStats(tenant, broadcastId, sumStats(run.map((p) => p.stats)))]),
        );
      } catch (error) {
        if (!(error instanceof NotHeld || error instanceof Exists)) throw error;
        for (const part of run) await part.alone();
      }
    }),
  );
};

export interface NewRecipient {
  customerId: string;
  /** Why the customer is skipped (blocked, unknown); a recipient without one is queued. */
  skip?: string;
}

const recipientCreate = (tenant: Tenant, broadcastId: string, now: Date, { customerId, skip }: NewRecipient): Write => {
  const recipient: Recipient = {
    broadcastId,
    customerId,
    status: skip ? 'skipped' : 'queued',
    reason: skip ?? null,
    sentAt: null,
    updatedAt: now.toISOString(),
  };
  return createItem(
    { ...recipientKey(tenant, broadcastId, customerId), type: 'BROADCAST_RECIPIENT', attempts: 0, ...recipient },
    () => new Exists(),
  );
};
const addedStats = ({ skip }: NewRecipient): Partial<Stats> => (skip ? { recipients: 1, skipped: 1 } : { recipients: 1 });

/** Adds one recipient (queued, or skipped with a reason) and counts it; false when the fan-out already had. */
const addRecipient = async (tenant: Tenant, broadcastId: string, r: NewRecipient, now: Date): Promise<boolean> => {
  try {
    await retryOnConflict(() =>
      direct.commit([recipientCreate(tenant, broadcastId, now, r), bumpStats(tenant, broadcastId, addedStats(r))]),
    );
    return true;
  } catch (error) {
    if (error instanceof Exists) return false;
    throw error;
  }
};

/**
 * Adds the fan-out's recipients and counts them, many per transaction; a recipient that exists already
 * (the fan-out ran before) is neither added nor counted again.
 */
export const addRecipients = (tenant: Tenant, broadcastId: string, recipients: NewRecipient[], now: Date): Promise<void> =>
  commitEach(
    tenant,
    broadcastId,
    recipients.map((r) => ({
      writes: [recipientCreate(tenant, broadcastId, now, r)],
      stats: addedStats(r),
      alone: () => addRecipient(tenant, broadcastId, r, now),
    })),
  );

const claimWrite = (
  tenant: Tenant,
  broadcastId: string,
  customerId: string,
  seen: StoredRecipient,
  now: number,
  leaseUntil: number,
): Write =>
  updateItem(recipientKey(tenant, broadcastId, customerId), 'SET #s = :sending, leaseUntil = :until ADD attempts :one', {
    condition: '(#s = :queued OR (#s = :sending AND leaseUntil < :now)) AND attempts = :seen',
    names: { '#s': 'status' },
    values: { ':sending': 'sending', ':queued': 'queued', ':until': leaseUntil, ':now': now, ':one': 1, ':seen': seen.attempts },
    onFail: () => new NotHeld(),
  });

const claimAll = async (
  tenant: Tenant,
  broadcastId: string,
  claims: [string, StoredRecipient][],
  now: number,
  leaseUntil: number,
): Promise<boolean> => {
  try {
    await retryOnConflict(() =>
      direct.commit([
        ...claims.map(([id, seen]) => claimWrite(tenant, broadcastId, id, seen, now, leaseUntil)),
        { ...stillSending(tenant, broadcastId), onFail: () => new NotHeld() },
      ]),
    );
    return true;
  } catch (error) {
    if (error instanceof NotHeld) return false;
    throw error;
  }
};

/**
 * Claims queued recipients' sends until `leaseUntil` (or takes over expired leases) while the broadcast is
 * still sending, each only if nobody attempted it since `seen` was read: the claim is attempt `seen + 1`.
 * All are claimed in one transaction; when one of them cannot be, each is tried on its own. Returns the
 * customer ids claimed.
 */
export const claimRecipients = async (
  tenant: Tenant,
  broadcastId: string,
  claims: [string, StoredRecipient][],
  now: number,
  leaseUntil: number,
): Promise<Set<string>> => {
  if (claims.length === 0) return new Set();
  if (claims.length > 1 && (await claimAll(tenant, broadcastId, claims, now, leaseUntil))) return new Set(claims.map(([id]) => id));
  const held = await Promise.all(
    claims.map(async (claim) => ((await claimAll(tenant, broadcastId, [claim], now, leaseUntil)) ? [claim[0]] : [])),
  );
  return new Set(held.flat());
};

export interface Settle {
  from: RecipientStatus | RecipientStatus[];
  to: RecipientStatus;
  reason?: string | null;
  /** Receipts the provider gave with the send (`to` is then `sent`): the recipient ends at the last one. */
  receipts?: ('delivered' | 'read')[];
  stats: Partial<Stats>;
  /** Only while the caller holds this lease. */
  lease?: number;
  writes?: Write[];
}

const EVENTS: Partial<Record<RecipientStatus, 'broadcast.recipient.delivered' | 'broadcast.recipient.failed'>> = {
  delivered: 'broadcast.recipient.delivered',
  failed: 'broadcast.recipient.failed',
};

/**
 * The writes that move a recipient from one of `from` to `to` (and on through its receipts), with the
 * event of each status it passes, conditional on its status (and lease): a repeated or stale outcome
 * fails the condition. The stats are the caller's to bump.
 */
const settleWrites = (
  tenant: Tenant,
  broadcastId: string,
  customerId: string,
  s: Settle,
  now: Date,
): { writes: Write[]; after: Recipient } => {
  const from = Array.isArray(s.from) ? s.from : [s.from];
  const at = now.toISOString();
  const path = [s.to, ...(s.receipts ?? [])].map(
    (status): Recipient => ({
      broadcastId,
      customerId,
      status,
      reason: s.reason ?? null,
      sentAt: s.to === 'sent' ? at : null,
      updatedAt: at,
    }),
  );
  const after = path.at(-1)!;
  const values: Record<string, unknown> = {
    ':to': after.status,
    ':reason': after.reason,
    ':at': at,
    ...Object.fromEntries(from.map((f, i) => [`:f${i}`, f])),
  };
  if (s.lease !== undefined) values[':lease'] = s.lease;
  const sets = ['#s = :to', 'reason = :reason', 'updatedAt = :at', ...(s.to === 'sent' ? ['sentAt = :at'] : [])];
  const condition = `(${from.map((_, i) => `#s = :f${i}`).join(' OR ')})${s.lease !== undefined ? ' AND leaseUntil = :lease' : ''}`;
  const events = path.flatMap((recipient) => {
    const type = EVENTS[recipient.status];
    return type ? [outboxItem(buildEnvelope(type, tenant, { recipient }, { now }))] : [];
  });
  return {
    writes: [
      updateItem(recipientKey(tenant, broadcastId, customerId), `SET ${sets.join(', ')} REMOVE leaseUntil, notBefore`, {
        condition,
        names: { '#s': 'status' },
        values,
        onFail: () => new NotHeld(),
      }),
      ...events,
      ...(s.writes ?? []),
    ],
    after,
  };
};

/**
 * Moves a recipient from one of `from` to `to`, with its stats and events, in one transaction conditional
 * on its status (and lease): a repeated or stale outcome changes nothing. Returns the recipient, or
 * undefined when it did not apply.
 */
export const settleRecipient = async (
  tenant: Tenant,
  broadcastId: string,
  customerId: string,
  s: Settle,
  now: Date,
): Promise<Recipient | undefined> => {
  const { writes, after } = settleWrites(tenant, broadcastId, customerId, s, now);
  try {
    await retryOnConflict(() => direct.commit([...writes, bumpStats(tenant, broadcastId, s.stats)]));
  } catch (error) {
    if (error instanceof NotHeld) return undefined;
    throw error;
  }
  if (s.to === 'sent') return after;
  // A receipt keeps the time it was sent, which only the item knows.
  const stored = await getRecipient(tenant, broadcastId, customerId);
  return stored ? { ...after, sentAt: stored.recipient.sentAt } : after;
};

/**
 * Settles several recipients of one broadcast, many per transaction (each part as `settleRecipient` would);
 * a part whose condition fails changes nothing, and the others still apply.
 */
export const settleRecipients = (
  tenant: Tenant,
  broadcastId: string,
  settles: { customerId: string; settle: Settle }[],
  now: Date,
): Promise<void> =>
  commitEach(
    tenant,
    broadcastId,
    settles.map(({ customerId, settle }) => ({
      writes: settleWrites(tenant, broadcastId, customerId, settle, now).writes,
      stats: settle.stats,
      alone: () => settleRecipient(tenant, broadcastId, customerId, settle, now),
    })),
  );

/** Gives a held send back (status queued again), to be retried no earlier than `notBefore`. */
export const postponeRecipient = async (
  tenant: Tenant,
  broadcastId: string,
  customerId: string,
  leaseUntil: number,
  notBefore: number,
): Promise<void> => {
  await direct
    .commit([
      updateItem(recipientKey(tenant, broadcastId, customerId), 'SET #s = :queued, notBefore = :nb REMOVE leaseUntil', {
        condition: 'leaseUntil = :lease',
        names: { '#s': 'status' },
        values: { ':queued': 'queued', ':nb': notBefore, ':lease': leaseUntil },
      }),
    ])
    .catch(() => undefined);
};

/** Deletes the customer's recipient entry from every broadcast of the tenant, each with `tally` in its transaction; answers how many. */
export const deleteRecipientEverywhere = async (tenant: Tenant, customerId: string, tally: () => Write): Promise<number> => {
  let deleted = 0;
  for await (const item of queryAll({ pk: broadcast.build('pk', { tenant }), skPrefix: broadcast.prefix('sk', {}) })) {
    const broadcastId = broadcast.read('sk', item.sk).id;
    if (!(await getRecipient(tenant, broadcastId, customerId))) continue;
    if (await removeOnce(recipientKey(tenant, broadcastId, customerId), [tally()])) deleted++;
  }
  return deleted;
};
