import { createHash } from 'node:crypto';
import { Missing, Refused } from '../domain/refusal';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import { MAX_SUBSCRIPTIONS, type Subscription } from '../domain/webhooks/subscription';
import { collect, queryAll, queryPage, type PageRequest } from './query';
import { bump, readCount, type Counter } from './counters';
import { createItem, deleteItem, updateItem, type Write } from './transact';
import type { Unit } from './unit';
import type { Tenant } from '../domain/auth/tenant';
import { subscription, subscriptionCount, subscriptionUrlLock } from './registry/webhooks';

const key = (tenant: Tenant, id: string) => subscription.key({ tenant, id });
const urlLockKey = (tenant: Tenant, url: string) =>
  subscriptionUrlLock.key({ tenant, urlHash: createHash('sha256').update(url).digest('hex') });
const subscriptionCounter = (tenant: Tenant): Counter => subscriptionCount.key({ tenant });
const ofTenant = (tenant: Tenant) => ({ pk: subscription.build('pk', { tenant }), skPrefix: subscription.prefix('sk', {}) });

const toItem = (s: Subscription) => ({
  ...key(s.workspaceId, s._id),
  type: 'WEBHOOK_SUBSCRIPTION',
  ...subscription.index('gsi1', { workspaceId: s.workspaceId, id: s._id }),
  ...s,
});

const fromItem = subscription.parse;

const duplicateUrl = () =>
  new Refused('subscription_url_taken', 'A subscription for this URL already exists in this workspace', { field: 'url' });

/** The writes that store a new subscription: counted (refused past MAX_SUBSCRIPTIONS) and its URL locked (refused when taken). */
export const subscriptionCreation = (tenant: Tenant, sub: Subscription): Write[] => [
  {
    ...bump(subscriptionCounter(tenant), { n: 1 }, { below: MAX_SUBSCRIPTIONS }),
    onFail: () =>
      new Refused('subscription_limit_reached', `A workspace can have at most ${MAX_SUBSCRIPTIONS} webhook subscriptions`, {
        limit: MAX_SUBSCRIPTIONS,
      }),
  },
  createItem({ ...urlLockKey(tenant, sub.url), type: 'WEBHOOK_URL_LOCK', subscriptionId: sub._id }, duplicateUrl),
  createItem(toItem(sub), duplicateUrl),
];

/** A subscription's key and parser, for reading it in one BatchGetItem with other items. */
export const subscriptionRead = (tenant: Tenant, id: string) => ({
  key: key(tenant, id),
  parse: (item: Record<string, unknown> | undefined): Subscription | undefined => (item ? fromItem(item) : undefined),
});

export const getSubscription = async (tenant: Tenant, id: string): Promise<Subscription | undefined> => {
  const { Item } = await dynamo().send(new GetCommand({ TableName: config().TABLE_NAME, Key: key(tenant, id), ConsistentRead: true }));
  return Item ? fromItem(Item) : undefined;
};

const countSubscriptions = (tenant: Tenant): Promise<number> => readCount(subscriptionCounter(tenant));

export const subscriptionsPage = async (tenant: Tenant, page: PageRequest) => {
  const [{ items, nextCursor }, total] = await Promise.all([queryPage(ofTenant(tenant), page), countSubscriptions(tenant)]);
  return { subscriptions: items.map(fromItem), total, nextCursor };
};

/** All of a workspace's subscriptions (at most MAX_SUBSCRIPTIONS). */
export const tenantSubscriptions = async (tenant: Tenant): Promise<Subscription[]> =>
  (await collect(queryAll(ofTenant(tenant)))).map(fromItem);

/** Every subscription of every workspace, one page at a time (the sweeper's walk). */
export async function* everySubscription(): AsyncGenerator<Subscription> {
  for await (const item of queryAll({ index: 'gsi1', pk: subscription.build('gsi1pk', {}) })) yield fromItem(item);
}

/** SET/REMOVE expression for a partial update; `undefined` values are removed. */
const setAndRemove = (fields: Record<string, unknown>) => {
  const entries = Object.entries(fields);
  const set = entries.filter(([, v]) => v !== undefined);
  const remove = entries.filter(([, v]) => v === undefined);
  const expression = [
    set.length ? `SET ${set.map(([k]) => `#${k} = :${k}`).join(', ')}` : '',
    remove.length ? `REMOVE ${remove.map(([k]) => `#${k}`).join(', ')}` : '',
  ]
    .join(' ')
    .trim();
  return {
    expression,
    names: Object.fromEntries(entries.map(([k]) => [`#${k}`, k])),
    values: Object.fromEntries(set.map(([k, v]) => [`:${k}`, v])),
  };
};

export const subscriptionUpdate = (
  s: Pick<Subscription, 'workspaceId' | '_id'>,
  fields: Record<string, unknown>,
  condition = 'attribute_exists(pk)',
  values: Record<string, unknown> = {},
): Write => {
  const u = setAndRemove(fields);
  return updateItem(key(s.workspaceId, s._id), u.expression, { names: u.names, values: { ...u.values, ...values }, condition });
};

/**
 * The writes that store a PATCH's `fields` over the subscription as read (a `Missing` when it went meanwhile);
 * a new URL moves its lock (refused when taken).
 */
export const subscriptionPatch = (before: Subscription, fields: Record<string, unknown>): Write[] => [
  { ...subscriptionUpdate(before, fields), onFail: () => new Missing('Subscription') },
  ...(typeof fields.url === 'string'
    ? [
        deleteItem(urlLockKey(before.workspaceId, before.url)),
        createItem({ ...urlLockKey(before.workspaceId, fields.url), type: 'WEBHOOK_URL_LOCK', subscriptionId: before._id }, duplicateUrl),
      ]
    : []),
];

/** A subscription as stored after `fields` were written over it. */
export const patchedSubscription = (before: Subscription, fields: Record<string, unknown>): Subscription =>
  fromItem({ ...before, ...fields });

/** Replaces the signing secrets if nobody rotated them since `before` was read (else 409). */
export const replaceSecrets = async (
  unit: Unit,
  before: Subscription,
  secrets: Pick<Subscription, 'secret' | 'previousSecrets'>,
  now: Date,
): Promise<Subscription> => {
  const fields = { ...secrets, updatedAt: now.toISOString() };
  await unit.commit(
    [subscriptionUpdate(before, fields, '#secret = :before', { ':before': before.secret })],
    () => new Refused('secret_rotated_concurrently', 'The secret was rotated by another request at the same time'),
  );
  return { ...before, ...fields };
};

/** The writes that delete the subscription (a `Missing` when it went meanwhile), its URL lock, and uncount it. */
export const subscriptionDeletion = (sub: Subscription): Write[] => [
  deleteItem(key(sub.workspaceId, sub._id), { condition: 'attribute_exists(pk)', onFail: () => new Missing('Subscription') }),
  deleteItem(urlLockKey(sub.workspaceId, sub.url)),
  bump(subscriptionCounter(sub.workspaceId), { n: -1 }),
];

/** One more consecutive failure, counted in the transaction that records the attempt. */
export const countSubscriptionFailure = (s: Pick<Subscription, 'workspaceId' | '_id'>): Write =>
  updateItem(key(s.workspaceId, s._id), 'ADD consecutiveFailures :one', { values: { ':one': 1 }, condition: 'attribute_exists(pk)' });

/** Ends the active period that began at `activatedAt`; false when it already ended (idempotent). */
export const deactivateSubscription = async (
  s: Pick<Subscription, 'workspaceId' | '_id' | 'activatedAt'>,
  reason: NonNullable<Subscription['deactivationReason']>,
  now: Date,
): Promise<boolean> => {
  const at = now.toISOString();
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: config().TABLE_NAME,
        Key: key(s.workspaceId, s._id),
        UpdateExpression: 'SET active = :f, deactivatedAt = :at, deactivationReason = :r, updatedAt = :at',
        ConditionExpression: 'active = :t AND activatedAt = :a',
        ExpressionAttributeValues: { ':f': false, ':t': true, ':at': at, ':r': reason, ':a': s.activatedAt },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
};
