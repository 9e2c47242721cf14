import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import { buildEnvelope } from '../events/envelope';
import type { Recipient, RecipientStatus, Stats } from '../domain/broadcasts/broadcast';
import { broadcastPartition, bumpStats, stillSending } from './broadcasts';
import { outboxItem } from './outbox';
import { queryPage, type PageRequest } from './query';
import { commit, createItem, updateItem, type Write } from './transact';

/**
 * A broadcast's recipients: pk=<tenant>#BROADCAST#<id> sk=RCPT#<customerId>, one per customer, so a
 * customer reached through two tags, or a fan-out that runs twice, is one recipient. The send state is on
 * the item: `leaseUntil` (a worker holds the send), `attempts`, `notBefore` (a retry's earliest time).
 */
const key = (ws: string, broadcastId: string, customerId: string) => ({ pk: broadcastPartition(ws, broadcastId), sk: `RCPT#${customerId}` });
const FIELDS = ['broadcastId', 'customerId', 'status', 'reason', 'sentAt', 'updatedAt'] as const;
const fromItem = (item: Record<string, unknown>): Recipient => Object.fromEntries(FIELDS.map((f) => [f, item[f] ?? null])) as unknown as Recipient;

export interface StoredRecipient {
  recipient: Recipient;
  attempts: number;
  leaseUntil?: number;
  notBefore?: number;
}

export const getRecipient = async (ws: string, broadcastId: string, customerId: string): Promise<StoredRecipient | undefined> => {
  const { Item } = await dynamo().send(new GetCommand({ TableName: config().TABLE_NAME, Key: key(ws, broadcastId, customerId), ConsistentRead: true }));
  if (!Item) return undefined;
  return { recipient: fromItem(Item), attempts: (Item.attempts as number | undefined) ?? 0, leaseUntil: Item.leaseUntil as number | undefined, notBefore: Item.notBefore as number | undefined };
};

export const listRecipients = async (ws: string, broadcastId: string, page: PageRequest) => {
  const { items, nextCursor } = await queryPage({ pk: broadcastPartition(ws, broadcastId), skPrefix: 'RCPT#' }, page);
  return { recipients: items.map(fromItem), nextCursor };
};

class Exists extends Error {}

/** Adds a recipient (queued, or skipped with a reason) and counts it; false when the fan-out already had. */
export const addRecipient = async (ws: string, broadcastId: string, customerId: string, skip: string | undefined, now: Date): Promise<boolean> => {
  const recipient: Recipient = { broadcastId, customerId, status: skip ? 'skipped' : 'queued', reason: skip ?? null, sentAt: null, updatedAt: now.toISOString() };
  try {
    await commit([
      createItem({ ...key(ws, broadcastId, customerId), type: 'BROADCAST_RECIPIENT', attempts: 0, ...recipient }, () => new Exists()),
      bumpStats(ws, broadcastId, skip ? { recipients: 1, skipped: 1 } : { recipients: 1 }),
    ]);
    return true;
  } catch (error) {
    if (error instanceof Exists) return false;
    throw error;
  }
};

class NotHeld extends Error {}

/**
 * Claims a queued recipient's send until `leaseUntil` (or takes over an expired lease) while the broadcast
 * is still sending, and only if nobody attempted it since `seen` was read: the claim is attempt `seen + 1`.
 */
export const claimRecipient = async (ws: string, broadcastId: string, customerId: string, seen: StoredRecipient, now: number, leaseUntil: number): Promise<boolean> => {
  try {
    await commit([
      updateItem(key(ws, broadcastId, customerId), 'SET #s = :sending, leaseUntil = :until ADD attempts :one', {
        condition: '(#s = :queued OR (#s = :sending AND leaseUntil < :now)) AND attempts = :seen',
        names: { '#s': 'status' },
        values: { ':sending': 'sending', ':queued': 'queued', ':until': leaseUntil, ':now': now, ':one': 1, ':seen': seen.attempts },
        onFail: () => new NotHeld(),
      }),
      { ...stillSending(ws, broadcastId), onFail: () => new NotHeld() },
    ]);
    return true;
  } catch (error) {
    if (error instanceof NotHeld) return false;
    throw error;
  }
};

export interface Settle {
  from: RecipientStatus | RecipientStatus[];
  to: RecipientStatus;
  reason?: string | null;
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
 * Moves a recipient from one of `from` to `to`, with its stats and event, in one transaction conditional
 * on its status (and lease): a repeated or stale outcome changes nothing. Returns the recipient, or
 * undefined when it did not apply.
 */
export const settleRecipient = async (ws: string, broadcastId: string, customerId: string, s: Settle, now: Date): Promise<Recipient | undefined> => {
  const from = Array.isArray(s.from) ? s.from : [s.from];
  const at = now.toISOString();
  const after: Recipient = { broadcastId, customerId, status: s.to, reason: s.reason ?? null, sentAt: s.to === 'sent' ? at : null, updatedAt: at };
  const values: Record<string, unknown> = { ':to': s.to, ':reason': after.reason, ':at': at, ...Object.fromEntries(from.map((f, i) => [`:f${i}`, f])) };
  if (s.lease !== undefined) values[':lease'] = s.lease;
  const sets = ['#s = :to', 'reason = :reason', 'updatedAt = :at', ...(s.to === 'sent' ? ['sentAt = :at'] : [])];
  const condition = `(${from.map((_, i) => `#s = :f${i}`).join(' OR ')})${s.lease !== undefined ? ' AND leaseUntil = :lease' : ''}`;
  const event = EVENTS[s.to];
  try {
    await commit([
      updateItem(key(ws, broadcastId, customerId), `SET ${sets.join(', ')} REMOVE leaseUntil, notBefore`, { condition, names: { '#s': 'status' }, values, onFail: () => new NotHeld() }),
      bumpStats(ws, broadcastId, s.stats),
      ...(event ? [outboxItem(buildEnvelope(event, ws, { recipient: after }, { now }))] : []),
      ...(s.writes ?? []),
    ]);
  } catch (error) {
    if (error instanceof NotHeld) return undefined;
    throw error;
  }
  if (s.to === 'sent') return after;
  // A receipt keeps the time it was sent, which only the item knows.
  const stored = await getRecipient(ws, broadcastId, customerId);
  return stored ? { ...after, sentAt: stored.recipient.sentAt } : after;
};

/** Gives a held send back (status queued again), to be retried no earlier than `notBefore`. */
export const postponeRecipient = async (ws: string, broadcastId: string, customerId: string, leaseUntil: number, notBefore: number): Promise<void> => {
  await commit([
    updateItem(key(ws, broadcastId, customerId), 'SET #s = :queued, notBefore = :nb REMOVE leaseUntil', {
      condition: 'leaseUntil = :lease',
      names: { '#s': 'status' },
      values: { ':queued': 'queued', ':nb': notBefore, ':lease': leaseUntil },
    }),
  ]).catch(() => undefined);
};
