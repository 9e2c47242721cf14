import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import type { Delivery, DeliveryStatus } from '../domain/webhooks/delivery';
import { collect, countItems, queryAll, queryChainPage, queryPage, type PageRequest, type Partition } from './query';
import { retryOnConflict } from './retry';
import { createItem, deleteItem, putItem, updateItem, type Write } from './transact';
import { type Commit, removeOnce, type Unit } from './unit';
import type { Tenant } from '../domain/auth/tenant';
import { itemCodec } from './codec';
import { delivery, type DeliveryItem, responseBody } from './registry/webhooks';

export type { DeliveryItem } from './registry/webhooks';

/**
 * Deliveries and their response bodies (keys and reads: registry/webhooks.ts). Exact totals are a key-only
 * COUNT of the partition a list reads, so no counter is written.
 * A delivery has one index entry while it is pending, retrying or failed: created with it, moved when its status
 * changes, and dropped (one delete, not a move) when it succeeds, which most deliveries do at once.
 */
type Ref = Pick<Delivery, 'workspaceId' | 'subscriptionId' | 'deliveryId'>;

const DELIVERY_PREFIX = delivery.prefix('sk', {});
const base = (tenant: Tenant, subscriptionId: string) => delivery.build('pk', { tenant, subscriptionId });
const key = (d: Ref) => delivery.key({ tenant: d.workspaceId, subscriptionId: d.subscriptionId, deliveryId: d.deliveryId });
const statusPk = (tenant: Tenant, subscriptionId: string, status: DeliveryStatus) =>
  delivery.build('gsi2pk', { tenant, subscriptionId, status });
const statusIndex = (d: Ref, status: DeliveryStatus) =>
  status === 'success'
    ? { gsi2pk: undefined, gsi2sk: undefined }
    : delivery.index('gsi2', { tenant: d.workspaceId, subscriptionId: d.subscriptionId, status, deliveryId: d.deliveryId });

/** Delivery logs are kept 30 days. */
const RETENTION_SECONDS = 30 * 24 * 3600;

const toItem = (d: Delivery) => ({
  ...key(d),
  type: 'WEBHOOK_DELIVERY',
  ...d,
  ...statusIndex(d, d.status),
  ttl: Math.floor(Date.parse(d.createdAt) / 1000) + RETENTION_SECONDS,
});

const fromItem = delivery.parse;
const statusOf = itemCodec(() => delivery.schema.pick({ status: true }));

const isConditionFailure = (error: unknown) =>
  error instanceof ConditionalCheckFailedException ||
  (error instanceof TransactionCanceledException && !!error.CancellationReasons?.some((r) => r.Code === 'ConditionalCheckFailed'));

/** One conditional write alone (a standard write); with `extra` items (another item's change), one transaction. */
const write = (unit: Unit, main: Write, extra: Write[]): Promise<Commit> =>
  extra.length === 0 ? unit.writeAlone(main) : retryOnConflict(() => unit.commit([main, ...extra]));

/** An attempt lease: who holds it (an SQS message or the carrier named in one) and until when (epoch ms). */
export interface Lease {
  carrier: string;
  until: number;
}

/**
 * Creates the delivery leased to `lease` (with any `extra` items) unless it already exists (fan-out
 * retries); true when this call created it.
 */
export const createDelivery = async (unit: Unit, d: Delivery, lease: Lease, extra: Write[] = []): Promise<boolean> => {
  try {
    await write(unit, createItem({ ...toItem(d), carrier: lease.carrier, leaseUntil: lease.until }), extra);
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
};

/** A delivery's key and parser, for reading it in one BatchGetItem with other items. */
export const deliveryRead = (ref: Ref) => ({
  key: key(ref),
  parse: (item: Record<string, unknown> | undefined): DeliveryItem | undefined => (item ? fromItem(item) : undefined),
});

export const getDelivery = async (tenant: Tenant, subscriptionId: string, deliveryId: string): Promise<DeliveryItem | undefined> => {
  const { Item } = await dynamo().send(
    new GetCommand({ TableName: config().TABLE_NAME, Key: key({ workspaceId: tenant, subscriptionId, deliveryId }), ConsistentRead: true }),
  );
  return Item ? fromItem(Item) : undefined;
};

/**
 * Takes the attempt lease for `carrier` (an SQS message id) and returns the delivery, but only if it is
 * pending or retrying, due by `dueBy`, and nobody else holds an unexpired lease; otherwise undefined.
 */
export const claimDelivery = async (
  ref: Ref,
  carrier: string,
  now: number,
  dueBy: number,
  leaseMs: number,
): Promise<DeliveryItem | undefined> => {
  try {
    const { Attributes } = await dynamo().send(
      new UpdateCommand({
        TableName: config().TABLE_NAME,
        Key: key(ref),
        UpdateExpression: 'SET leaseUntil = :until, carrier = :c',
        ConditionExpression:
          '#s IN (:p, :r) AND nextRetryAt <= :due AND (attribute_not_exists(leaseUntil) OR leaseUntil < :now OR carrier = :c)',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: {
          ':until': now + leaseMs,
          ':c': carrier,
          ':p': 'pending',
          ':r': 'retrying',
          ':now': now,
          ':due': new Date(dueBy).toISOString(),
        },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return Attributes ? fromItem(Attributes) : undefined;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return undefined;
    throw error;
  }
};

const MUTABLE = [
  'status',
  'attemptNumber',
  'httpStatus',
  'latency',
  'failureReason',
  'nextRetryAt',
  'attempts',
  'roundStartAttempt',
  'roundStartedAt',
  'subscriptionActivatedAt',
  'failureCounted',
  'updatedAt',
] as const;

/**
 * Writes `after` over `before` if nobody moved it in between (same attemptNumber and status), with any
 * `extra` items (e.g. the subscription's failure count) in the same transaction; alone, it is one update.
 * The lease is released, or extended to `leaseUntil` for the carrier's next attempt. False when the
 * delivery had already moved on (a duplicate attempt is dropped).
 */
export const saveDelivery = async (
  unit: Unit,
  before: Delivery,
  after: Delivery,
  extra: Write[] = [],
  leaseUntil?: number,
): Promise<boolean> => {
  // A delivery written before the log counted by query also had a type index entry: the first change drops it.
  const fields: Record<string, unknown> = {
    ...Object.fromEntries(MUTABLE.map((k) => [k, after[k]])),
    ...statusIndex(after, after.status),
    leaseUntil,
    gsi1pk: undefined,
    gsi1sk: undefined,
  };
  const set = Object.entries(fields).filter(([, v]) => v !== undefined);
  const removed = Object.entries(fields)
    .filter(([, v]) => v === undefined)
    .map(([k]) => k);
  const names = Object.fromEntries(Object.keys(fields).map((k) => [`#${k}`, k]));
  const expression = `SET ${set.map(([k]) => `#${k} = :${k}`).join(', ')}${removed.length ? ` REMOVE ${removed.map((k) => `#${k}`).join(', ')}` : ''}`;
  try {
    const update = updateItem(key(before), expression, {
      names,
      values: { ...Object.fromEntries(set.map(([k, v]) => [`:${k}`, v])), ':n0': before.attemptNumber, ':s0': before.status },
      condition: '#attemptNumber = :n0 AND #status = :s0',
    });
    await write(unit, update, extra);
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

/** The order a list filtered by event type alone shows its statuses in (each newest first). */
const TYPE_LIST_ORDER: readonly DeliveryStatus[] = ['success', 'retrying', 'pending', 'failed'];

const ofType = (eventType: string) => ({
  expression: '#eventType = :eventType',
  names: { '#eventType': 'eventType' },
  values: { ':eventType': eventType },
});

type Filter = NonNullable<Partition['filter']>;

const succeeded: Filter = { expression: '#status = :success', names: { '#status': 'status' }, values: { ':success': 'success' } };

const both = (a: Filter, b: Filter): Filter => ({
  expression: `${a.expression} AND ${b.expression}`,
  names: { ...a.names, ...b.names },
  values: { ...a.values, ...b.values },
});

const allDeliveries = (tenant: Tenant, subscriptionId: string): Partition => ({
  pk: base(tenant, subscriptionId),
  skPrefix: DELIVERY_PREFIX,
  newestFirst: true,
});

/** Succeeded deliveries are not indexed: their list reads every delivery of the subscription, filtered. */
const statusPartition = (tenant: Tenant, subscriptionId: string, status: DeliveryStatus, eventType?: string): Partition =>
  status === 'success'
    ? { ...allDeliveries(tenant, subscriptionId), filter: eventType ? both(succeeded, ofType(eventType)) : succeeded }
    : {
        index: 'gsi2',
        pk: statusPk(tenant, subscriptionId, status),
        newestFirst: true,
        ...(eventType ? { filter: ofType(eventType) } : {}),
      };

/** The partitions a filter lists, in order; its exact total is the sum of their counts. */
const partitionsOf = (tenant: Tenant, subscriptionId: string, filter: DeliveryFilter): Partition[] => {
  if (filter.status) return [statusPartition(tenant, subscriptionId, filter.status, filter.eventType)];
  if (filter.eventType) return TYPE_LIST_ORDER.map((status) => statusPartition(tenant, subscriptionId, status, filter.eventType));
  return [allDeliveries(tenant, subscriptionId)];
};

export const listDeliveries = async (tenant: Tenant, subscriptionId: string, filter: DeliveryFilter, page: PageRequest) => {
  const partitions = partitionsOf(tenant, subscriptionId, filter);
  const [{ items, nextCursor }, counts] = await Promise.all([
    partitions.length === 1 ? queryPage(partitions[0]!, page) : queryChainPage(partitions, page),
    Promise.all(partitions.map((p) => countItems(p))),
  ]);
  return { deliveries: items.map(fromItem), total: counts.reduce((a, b) => a + b, 0), nextCursor };
};

/**
 * A subscription's failed deliveries created before `until`, oldest first, one query page at a time. Ids
 * begin with their event's creation second, and an event precedes its deliveries, so the index's sort key
 * bounds the walk (a minute's margin for clocks); the caller checks `createdAt` itself.
 */
export async function* failedDeliveriesBefore(tenant: Tenant, subscriptionId: string, until: Date): AsyncGenerator<DeliveryItem> {
  const bound = (Math.floor(until.getTime() / 1000) + 60).toString(16).padStart(8, '0');
  for await (const item of queryAll({ index: 'gsi2', pk: statusPk(tenant, subscriptionId, 'failed'), skBelow: bound }))
    yield fromItem(item);
}

const bodyKey = (d: Ref, attempt: number) =>
  responseBody.key({
    tenant: d.workspaceId,
    subscriptionId: d.subscriptionId,
    deliveryId: d.deliveryId,
    attempt: String(attempt).padStart(4, '0'),
  });
const bodiesOf = (d: Ref) => ({
  pk: base(d.workspaceId, d.subscriptionId),
  skPrefix: responseBody.prefix('sk', { deliveryId: d.deliveryId }),
  consistent: true,
});

/** The first bytes of an attempt's response body, kept beside the delivery as long as it is, written with the attempt. */
export const responseBodyWrite = (d: Delivery, attemptNumber: number, body: Buffer): Write =>
  putItem({
    ...bodyKey(d, attemptNumber),
    type: 'WEBHOOK_RESPONSE_BODY',
    body,
    ttl: Math.floor(Date.parse(d.createdAt) / 1000) + RETENTION_SECONDS,
  });

/** The response bodies kept for a delivery's attempts, by attempt number. */
export const responseBodies = async (d: Ref): Promise<Map<number, Buffer>> => {
  const out = new Map<number, Buffer>();
  for await (const item of queryAll(bodiesOf(d))) {
    out.set(Number(responseBody.read('sk', item.sk).attempt), Buffer.from(responseBody.parse(item).body));
  }
  return out;
};

/** The statuses of a subscription's latest `limit` deliveries, newest first. */
export const recentStatuses = async (tenant: Tenant, subscriptionId: string, limit: number): Promise<DeliveryStatus[]> => {
  const { Items = [] } = await dynamo().send(
    new QueryCommand({
      TableName: config().TABLE_NAME,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :dlv)',
      ExpressionAttributeNames: { '#s': 'status' },
      ExpressionAttributeValues: { ':pk': base(tenant, subscriptionId), ':dlv': DELIVERY_PREFIX },
      ProjectionExpression: '#s',
      ScanIndexForward: false,
      Limit: limit,
    }),
  );
  return Items.map((i) => statusOf(i).status);
};

/** A subscription's open deliveries in one status (the sweeper's and deactivation's). */
export const deliveriesInStatus = async (
  tenant: Tenant,
  subscriptionId: string,
  status: 'pending' | 'retrying',
): Promise<DeliveryItem[]> => {
  const out: DeliveryItem[] = [];
  for await (const item of queryAll({ index: 'gsi2', pk: statusPk(tenant, subscriptionId, status) })) out.push(fromItem(item));
  return out;
};

/**
 * Deletes the subscription's deliveries of the events `eventIds` names, each with its response bodies and
 * `tally` in one transaction (its index entry goes with it, so every status total stays exact); answers how many.
 */
export const deleteDeliveriesOf = async (
  tenant: Tenant,
  subscriptionId: string,
  eventIds: ReadonlySet<string>,
  tally: () => Write,
): Promise<number> => {
  const pk = base(tenant, subscriptionId);
  let deleted = 0;
  for await (const item of queryAll({ pk, skPrefix: DELIVERY_PREFIX, consistent: true })) {
    const d = fromItem(item);
    if (!eventIds.has(d.eventId)) continue;
    const bodies = await collect(queryAll(bodiesOf(d)));
    const bodyKeys = bodies.map((b) => bodyKey(d, Number(responseBody.read('sk', b.sk).attempt)));
    if (await removeOnce(key(d), [...bodyKeys.map((k) => deleteItem(k)), tally()])) deleted++;
  }
  return deleted;
};
