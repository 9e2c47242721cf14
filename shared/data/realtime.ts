import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import type { Tenant } from '../domain/auth/tenant';
import type * as z from 'zod';
import { collect, queryAll } from './query';
import { realtimeConnection, realtimePointer, realtimePresence, realtimeTicket } from './registry/realtime';
import { createItem } from './transact';
import { type Commit, direct, type Unit } from './unit';

/** API Gateway closes every WebSocket after 2 hours; a connection item outlives it by nothing. */
const CONNECTION_TTL_SECONDS = 2 * 3600;

const ticketKey = (hash: string) => realtimeTicket.key({ hash });
const pointerKey = (connectionId: string) => realtimePointer.key({ connectionId });
const connectionKey = (tenant: Tenant, connectionId: string) => realtimeConnection.key({ tenant, connectionId });
const epoch = (iso: string) => Math.floor(Date.parse(iso) / 1000);

export type TicketClaims = z.infer<typeof realtimeTicket.schema>;

export const storeTicket = (unit: Unit, hash: string, claims: TicketClaims): Promise<Commit> =>
  unit.commit([createItem({ ...ticketKey(hash), ...claims, ttl: epoch(claims.expiresAt) })]);

/**
 * Redeems a ticket: deletes it on the condition that it exists and has not expired, so two sockets can never
 * open with one ticket. `expired` when it exists but its time is past (TTL deletes lazily), `unknown` otherwise.
 */
export const redeemTicket = async (hash: string, now: Date): Promise<TicketClaims | 'unknown' | 'expired'> => {
  try {
    const { Attributes } = await dynamo().send(
      new DeleteCommand({
        TableName: config().TABLE_NAME,
        Key: ticketKey(hash),
        ConditionExpression: 'attribute_exists(pk) AND expiresAt > :now',
        ExpressionAttributeValues: { ':now': now.toISOString() },
        ReturnValues: 'ALL_OLD',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return realtimeTicket.parse(Attributes!);
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    return error.Item ? 'expired' : 'unknown';
  }
};

export type Connection = z.infer<typeof realtimeConnection.schema>;

export const countTokenConnections = async (tokenId: string): Promise<number> => {
  const { Count } = await dynamo().send(
    new QueryCommand({
      TableName: config().TABLE_NAME,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': realtimePointer.build('gsi1pk', { tokenId }) },
      Select: 'COUNT',
    }),
  );
  return Count ?? 0;
};

/**
 * The tenant's presence: how many sockets it holds and when the newest of them ends at the latest. A push reads
 * it first, so an event of a tenant without sockets costs one GetItem of this small item, never a Query of
 * the sockets' partition. `sockets` moves in the transactions that create and forget a socket; a socket that
 * only expires (TTL) is never subtracted, so the count can only be too high, and `until` bounds that.
 */
const presenceKey = (tenant: Tenant) => realtimePresence.key({ tenant });

/** Counts a socket in or out; an UpdateItem alone (ADD is atomic), so concurrent sockets never conflict on it. */
const countPresence = (tenant: Tenant, by: 1 | -1, until?: number) =>
  dynamo().send(
    new UpdateCommand({
      TableName: config().TABLE_NAME,
      Key: presenceKey(tenant),
      UpdateExpression: until === undefined ? 'ADD sockets :by' : 'ADD sockets :by SET #until = :until, #ttl = :until',
      ExpressionAttributeNames: until === undefined ? undefined : { '#until': 'until', '#ttl': 'ttl' },
      ExpressionAttributeValues: until === undefined ? { ':by': by } : { ':by': by, ':until': until },
    }),
  );

/** Whether the tenant may hold a socket now (read consistently: a socket stored before an event committed counts). */
export const tenantHasSockets = async (tenant: Tenant, now: Date): Promise<boolean> => {
  const { Item } = await dynamo().send(
    new GetCommand({
      TableName: config().TABLE_NAME,
      Key: presenceKey(tenant),
      ConsistentRead: true,
      ProjectionExpression: 'sockets, #until',
      ExpressionAttributeNames: { '#until': 'until' },
    }),
  );
  if (!Item) return false;
  const { sockets, until } = realtimePresence.parse(Item);
  return sockets > 0 && until > now.getTime() / 1000;
};

/** A new socket: its state in the tenant's partition and its pointer, which the token's index lists. */
export const storeConnection = async (connectionId: string, claims: TicketClaims, now: Date): Promise<void> => {
  const ttl = Math.floor(now.getTime() / 1000) + CONNECTION_TTL_SECONDS;
  // Counted before the socket exists: a push that sees the socket always sees the count.
  await countPresence(claims.tenant, 1, ttl);
  await direct.commit([
    createItem({
      ...connectionKey(claims.tenant, connectionId),
      connectionId,
      tenant: claims.tenant,
      tokenId: claims.tokenId,
      scopes: claims.scopes,
      state: 'connected',
      connectedAt: now.toISOString(),
      ttl,
    }),
    createItem({
      ...pointerKey(connectionId),
      tenant: claims.tenant,
      tokenId: claims.tokenId,
      ...realtimePointer.index('gsi1', { tokenId: claims.tokenId, connectionId }),
      ttl,
    }),
  ]);
};

export const readConnection = async (connectionId: string): Promise<Connection | undefined> => {
  const { Item: pointer } = await dynamo().send(
    new GetCommand({ TableName: config().TABLE_NAME, Key: pointerKey(connectionId), ConsistentRead: true }),
  );
  if (!pointer) return undefined;
  const { Item } = await dynamo().send(
    new GetCommand({
      TableName: config().TABLE_NAME,
      Key: connectionKey(realtimePointer.parse(pointer).tenant, connectionId),
      ConsistentRead: true,
    }),
  );
  return Item ? realtimeConnection.parse(Item) : undefined;
};

/**
 * Deletes an item and answers it, or undefined when it was gone. Conditional, so that of concurrent deleters
 * exactly one is answered the item: DynamoDB Local answers a plain delete's old image to several of them. Not
 * `removeOnce` (unit.ts): the pointer's old image names the tenant, and the pushes that find one socket gone
 * forget it all at once, where concurrent transactions on one item would conflict.
 */
const deleteOnce = async (key: Record<string, string>): Promise<Record<string, unknown> | undefined> => {
  try {
    const { Attributes } = await dynamo().send(
      new DeleteCommand({ TableName: config().TABLE_NAME, Key: key, ConditionExpression: 'attribute_exists(pk)', ReturnValues: 'ALL_OLD' }),
    );
    return Attributes;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return undefined;
    throw error;
  }
};

/** Forgets a socket (closed, or gone when pushed to); nothing when it is already forgotten, however many forget it at once. */
export const forgetConnection = async (connectionId: string): Promise<void> => {
  const pointer = await deleteOnce(pointerKey(connectionId));
  if (!pointer) return;
  const { tenant } = realtimePointer.parse(pointer);
  // Uncounted only once actually deleted: one that expired (TTL) keeps its count, which `until` bounds.
  if (await deleteOnce(connectionKey(tenant, connectionId))) await countPresence(tenant, -1);
};

/** Stores a socket's one subscription; false when it has one already. */
export const subscribeConnection = async (
  connection: Connection,
  subscription: { exact: string[]; prefixes: string[]; since: string | null },
  now: Date,
): Promise<boolean> => {
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: config().TABLE_NAME,
        Key: connectionKey(connection.tenant, connection.connectionId),
        UpdateExpression:
          'SET #state = :replaying, exact = :exact, prefixes = :prefixes, since = :since, subscribedAt = :at, pending = :none',
        ConditionExpression: '#state = :connected',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: {
          ':replaying': 'replaying',
          ':connected': 'connected',
          ':exact': subscription.exact,
          ':prefixes': subscription.prefixes,
          ':since': subscription.since,
          ':at': now.toISOString(),
          ':none': [],
        },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
};

/** Every socket of the tenant, read consistently: one subscribed before an event committed is among them. */
export const tenantConnections = async (tenant: Tenant): Promise<Connection[]> =>
  (await collect(queryAll({ pk: realtimeConnection.build('pk', { tenant }), consistent: true }))).map(realtimeConnection.parse);

/**
 * Holds a live event for a socket that is still replaying its backlog. `live` when the replay finished in the
 * meantime (send it now); `full` when the socket has held `max` already (it cannot keep up: close it).
 */
export const holdPending = async (connection: Connection, eventId: string, max: number): Promise<'held' | 'live' | 'full'> => {
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: config().TABLE_NAME,
        Key: connectionKey(connection.tenant, connection.connectionId),
        UpdateExpression: 'SET pending = list_append(pending, :id)',
        ConditionExpression: '#state = :replaying AND size(pending) < :max',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':replaying': 'replaying', ':id': [eventId], ':max': max },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return 'held';
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    return (error.Item?.state as { S?: string } | undefined)?.S === 'live' ? 'live' : 'full';
  }
};

/** Ends a socket's replay: from now on events go to it live. Answers the events held meanwhile (undefined: the socket is gone). */
export const goLive = async (connection: Connection, seam: string[]): Promise<string[] | undefined> => {
  try {
    const { Attributes } = await dynamo().send(
      new UpdateCommand({
        TableName: config().TABLE_NAME,
        Key: connectionKey(connection.tenant, connection.connectionId),
        UpdateExpression: 'SET #state = :live, seam = :seam, pending = :none',
        ConditionExpression: '#state = :replaying',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':live': 'live', ':replaying': 'replaying', ':seam': seam, ':none': [] },
        ReturnValues: 'ALL_OLD',
      }),
    );
    return (Attributes && realtimeConnection.parse(Attributes).pending) ?? [];
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return undefined;
    throw error;
  }
};

/**
 * Claims a subscribed socket's replay for the run in hand: false when a run already began it (the bus
 * delivered the subscription twice, or Lambda retried a run that died mid-replay), which may have sent
 * part of the backlog.
 */
export const claimReplay = async (connection: Connection): Promise<boolean> => {
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: config().TABLE_NAME,
        Key: connectionKey(connection.tenant, connection.connectionId),
        UpdateExpression: 'SET replayClaimed = :true',
        ConditionExpression: '#state = :replaying AND attribute_not_exists(replayClaimed)',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':replaying': 'replaying', ':true': true },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
};

/** The sockets a token opened, in every workspace and mode (revoking it closes them). */
export const tokenConnectionIds = async (tokenId: string): Promise<string[]> =>
  (await collect(queryAll({ index: 'gsi1', pk: realtimePointer.build('gsi1pk', { tokenId }) }))).map(
    (item) => realtimePointer.read('gsi1sk', item.gsi1sk).connectionId,
  );
