import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import type { Delivery, DeliveryStatus } from '../domain/webhooks/delivery';
import { bumpCounter, readCounter } from './counters';
import { queryPage, type PageRequest } from './query';
import { wsKey } from './table';
import { createItem, transact, updateItem, type TxItem } from './transact';

/**
 * Access patterns (all within one subscription's partitions):
 * - delivery by id ............. pk=WS#<ws>#WHSUB#<sub>  sk=DLV#<deliveryId>
 * - a subscription's deliveries  same pk, newest first (ids are time-ordered)
 * - by status .................. gsi2pk=WS#<ws>#WHSUB#<sub>#STATUS#<status>  gsi2sk=<deliveryId>
 * - by event type (± status) ... gsi1pk=WS#<ws>#WHSUB#<sub>#TYPE#<eventType>  gsi1sk=<status>#<deliveryId>
 * Exact totals per subscription, status, type and type×status are counters kept in the same transactions.
 */
const base = (workspaceId: string, subscriptionId: string) => `${wsKey(workspaceId)}#WHSUB#${subscriptionId}`;
const key = (d: Pick<Delivery, 'workspaceId' | 'subscriptionId' | 'deliveryId'>) => ({
  pk: base(d.workspaceId, d.subscriptionId),
  sk: `DLV#${d.deliveryId}`,
});
const statusIndex = (d: Pick<Delivery, 'workspaceId' | 'subscriptionId' | 'deliveryId'>, status: DeliveryStatus) => ({
  gsi2pk: `${base(d.workspaceId, d.subscriptionId)}#STATUS#${status}`,
  gsi2sk: d.deliveryId,
  gsi1sk: `${status}#${d.deliveryId}`,
});

/** Delivery logs are kept 30 days. */
const RETENTION_SECONDS = 30 * 24 * 3600;

/** Internal bookkeeping stored beside the delivery: who holds the attempt lease, and which message carries it. */
export interface DeliveryItem extends Delivery {
  leaseUntil?: number;
  carrier?: string;
}

const toItem = (d: Delivery) => ({
  ...key(d),
  type: 'WEBHOOK_DELIVERY',
  ...d,
  gsi1pk: `${base(d.workspaceId, d.subscriptionId)}#TYPE#${d.eventType}`,
  ...statusIndex(d, d.status),
  ttl: Math.floor(Date.parse(d.createdAt) / 1000) + RETENTION_SECONDS,
});

const fromItem = (item: Record<string, unknown>): DeliveryItem => {
  const { pk: _pk, sk: _sk, type: _t, gsi1pk: _g1, gsi1sk: _g1s, gsi2pk: _g2, gsi2sk: _g2s, ttl: _ttl, ...rest } = item;
  return rest as unknown as DeliveryItem;
};

const counterNames = (d: Pick<Delivery, 'subscriptionId' | 'eventType'>, status?: DeliveryStatus) => {
  const sub = `whdlv.${d.subscriptionId}`;
  return status ? [`${sub}.s.${status}`, `${sub}.t.${d.eventType}.s.${status}`] : [sub, `${sub}.t.${d.eventType}`];
};

/**
 * Every delivery of a subscription moves these counters, and concurrent transactions on one item cancel
 * each other; so each counter is split into shards, a write bumps one random shard, a read sums them all.
 */
const COUNTER_SHARDS = 8;
const shardOf = (name: string, shard: number) => `${name}#${shard}`;

const readShardedCounter = async (workspaceId: string, name: string): Promise<number> => {
  const shards = await Promise.all(Array.from({ length: COUNTER_SHARDS }, (_, i) => readCounter(workspaceId, shardOf(name, i))));
  return shards.reduce((a, b) => a + b, 0);
};

const statusCounters = (d: Delivery, from: DeliveryStatus | undefined, to: DeliveryStatus): TxItem[] => {
  if (from === to) return [];
  const shard = Math.floor(Math.random() * COUNTER_SHARDS);
  const bump = (names: string[], delta: number) => names.map((n) => bumpCounter(d.workspaceId, shardOf(n, shard), delta));
  return [...(from ? bump(counterNames(d, from), -1) : bump(counterNames(d), 1)), ...bump(counterNames(d, to), 1)];
};

const isConditionFailure = (error: unknown) =>
  error instanceof ConditionalCheckFailedException ||
  (error instanceof TransactionCanceledException && !!error.CancellationReasons?.some((r) => r.Code === 'ConditionalCheckFailed'));

const conflicted = (error: unknown) =>
  error instanceof TransactionCanceledException && !!error.CancellationReasons?.some((r) => r.Code === 'TransactionConflict');

/**
 * Concurrent deliveries of one subscription share its counter items, and DynamoDB cancels a transaction
 * that races another on the same item; a cancelled transaction wrote nothing, so it is simply retried.
 */
const transactWithRetry = async (items: () => TxItem[]): Promise<void> => {
  for (let attempt = 1; ; attempt++) {
    try {
      return await transact(items());
    } catch (error) {
      if (!conflicted(error) || attempt >= 25) throw error;
      await new Promise((r) => setTimeout(r, Math.random() * 10 * Math.min(attempt, 10)));
    }
  }
};

/** Creates the delivery unless it already exists (fan-out retries); true when this call created it. */
export const createDelivery = async (d: Delivery): Promise<boolean> => {
  try {
    await transactWithRetry(() => [createItem(toItem(d)), ...statusCounters(d, undefined, d.status)]);
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
};

export const getDelivery = async (workspaceId: string, subscriptionId: string, deliveryId: string): Promise<DeliveryItem | undefined> => {
  const { Item } = await dynamo().send(
    new GetCommand({ TableName: config().TABLE_NAME, Key: key({ workspaceId, subscriptionId, deliveryId }), ConsistentRead: true }),
  );
  return Item ? fromItem(Item) : undefined;
};

/**
 * Takes the attempt lease for `carrier` (an SQS message id): only while the delivery is still at
 * `attemptNumber`, pending or retrying, and nobody else holds an unexpired lease. False when lost.
 */
export const claimDelivery = async (d: Delivery, carrier: string, now: number, leaseMs: number): Promise<boolean> => {
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: config().TABLE_NAME,
        Key: key(d),
        UpdateExpression: 'SET leaseUntil = :until, carrier = :c',
        ConditionExpression: 'attemptNumber = :n AND #s IN (:p, :r) AND (attribute_not_exists(leaseUntil) OR leaseUntil < :now OR carrier = :c)',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: { ':until': now + leaseMs, ':c': carrier, ':n': d.attemptNumber, ':p': 'pending', ':r': 'retrying', ':now': now },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
};

const MUTABLE = [
  'status', 'attemptNumber', 'httpStatus', 'latency', 'failureReason', 'nextRetryAt', 'attempts',
  'roundStartAttempt', 'roundStartedAt', 'subscriptionActivatedAt', 'failureCounted', 'updatedAt',
] as const;

/**
 * Writes `after` over `before` if nobody moved it in between (same attemptNumber and status), with the
 * status counters and any `extra` items (e.g. the subscription's failure count) in the same transaction.
 * The lease is released. False when the delivery had already moved on (a duplicate attempt is dropped).
 */
export const saveDelivery = async (before: Delivery, after: Delivery, extra: TxItem[] = []): Promise<boolean> => {
  const fields: Record<string, unknown> = { ...Object.fromEntries(MUTABLE.map((k) => [k, after[k]])), ...statusIndex(after, after.status) };
  const set = Object.entries(fields).filter(([, v]) => v !== undefined);
  const removed = [...Object.entries(fields).filter(([, v]) => v === undefined).map(([k]) => k), 'leaseUntil'];
  const names = Object.fromEntries([...Object.keys(fields), 'leaseUntil'].map((k) => [`#${k}`, k]));
  const expression = `SET ${set.map(([k]) => `#${k} = :${k}`).join(', ')} REMOVE ${removed.map((k) => `#${k}`).join(', ')}`;
  try {
    await transactWithRetry(() => [
      updateItem(key(before), expression, {
        names,
        values: { ...Object.fromEntries(set.map(([k, v]) => [`:${k}`, v])), ':n0': before.attemptNumber, ':s0': before.status },
        condition: '#attemptNumber = :n0 AND #status = :s0',
      }),
      ...statusCounters(after, before.status, after.status),
      ...extra,
    ]);
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
};

export interface DeliveryFilter {
  status?: DeliveryStatus;
  eventType?: string;
}

export const listDeliveries = async (workspaceId: string, subscriptionId: string, filter: DeliveryFilter, page: PageRequest) => {
  const b = base(workspaceId, subscriptionId);
  const partition = filter.eventType
    ? { index: 'gsi1' as const, pk: `${b}#TYPE#${filter.eventType}`, skPrefix: filter.status ? `${filter.status}#` : undefined }
    : filter.status
      ? { index: 'gsi2' as const, pk: `${b}#STATUS#${filter.status}` }
      : { pk: b, skPrefix: 'DLV#' };
  const names = counterNames({ subscriptionId, eventType: filter.eventType ?? '' }, filter.status);
  const counter = filter.eventType ? names[1]! : names[0]!;
  const [{ items, nextCursor }, total] = await Promise.all([
    queryPage({ ...partition, newestFirst: true }, page),
    readShardedCounter(workspaceId, counter),
  ]);
  return { deliveries: items.map(fromItem), total, nextCursor };
};

/** A subscription's deliveries in one status (pending/retrying are the ones the sweeper and deactivation need). */
export const deliveriesInStatus = async (workspaceId: string, subscriptionId: string, status: DeliveryStatus): Promise<DeliveryItem[]> => {
  const out: DeliveryItem[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await dynamo().send(
      new QueryCommand({
        TableName: config().TABLE_NAME,
        IndexName: 'gsi2',
        KeyConditionExpression: 'gsi2pk = :p',
        ExpressionAttributeValues: { ':p': `${base(workspaceId, subscriptionId)}#STATUS#${status}` },
        ExclusiveStartKey,
      }),
    );
    out.push(...(page.Items ?? []).map(fromItem));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return out;
};
