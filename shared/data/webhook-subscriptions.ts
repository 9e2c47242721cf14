import { createHash } from 'node:crypto';
import { Missing, Refused } from '../domain/refusal';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import { MAX_SUBSCRIPTIONS, type Subscription } from '../domain/webhooks/subscription';
import { collect, queryAll, queryPage, type PageRequest } from './query';
import { bump, readCount, type Counter } from './counters';
import { tenantPk } from './keys';
import { createItem, deleteItem, transact, updateItem, type Write } from './transact';
import * as z from 'zod';
import { tenantField, type Tenant } from '../domain/auth/tenant';
import { exactly } from '../views/common';
import { itemCodec } from './codec';
import { K } from './registry/registry';

/**
 * Access patterns:
 * - subscription by id ........ pk=<tenant>  sk=WHSUB#<id>
 * - a workspace's subscriptions  pk=<tenant>  sk begins_with WHSUB#   (≤ MAX_SUBSCRIPTIONS)
 * - every subscription (sweeper) gsi1pk=WEBHOOK_SUBSCRIPTIONS  gsi1sk=<ws>#<id>
 * - one URL per workspace ...... pk=<tenant>#WHURL#<sha256(url)>  sk=WHURL  (uniqueness lock)
 * - subscription count ......... pk=<tenant>  sk=WHSUB_COUNT  (exact, conditionally bounded)
 */
const key = (tenant: Tenant, id: string) => ({ pk: tenantPk(tenant), sk: `${K.WHSUB}#${id}` });
const urlLockKey = (tenant: Tenant, url: string) => ({
  pk: tenantPk(tenant, K.WHURL, createHash('sha256').update(url).digest('hex')),
  sk: K.WHURL,
});
const subscriptionCounter = (tenant: Tenant): Counter => ({ pk: tenantPk(tenant), sk: K.WHSUB_COUNT });
const ALL_SUBSCRIPTIONS = K.WEBHOOK_SUBSCRIPTIONS;

const toItem = (s: Subscription) => ({
  ...key(s.workspaceId, s._id),
  type: 'WEBHOOK_SUBSCRIPTION',
  gsi1pk: ALL_SUBSCRIPTIONS,
  gsi1sk: `${s.workspaceId}#${s._id}`,
  ...s,
});

/** A stored subscription, secrets included; an item from before failures were counted reads 0. */
const storedSubscription = exactly<Subscription>()(
  z.object({
    _id: z.string(),
    workspaceId: tenantField,
    url: z.string(),
    events: z.array(z.string()),
    active: z.boolean(),
    secret: z.string(),
    previousSecrets: z.array(z.object({ secret: z.string(), expiresAt: z.string() })).optional(),
    consecutiveFailures: z
      .number()
      .optional()
      .transform((n) => n ?? 0),
    activatedAt: z.string().optional(),
    deactivatedAt: z.string().optional(),
    deactivationReason: z.enum(['manual', 'gone_410', 'consecutive_failures']).optional(),
    createdAt: z.string(),
    updatedAt: z.string(),
  }),
);
const fromItem = itemCodec(storedSubscription);

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
  const [{ items, nextCursor }, total] = await Promise.all([
    queryPage({ pk: tenantPk(tenant), skPrefix: `${K.WHSUB}#` }, page),
    countSubscriptions(tenant),
  ]);
  return { subscriptions: items.map(fromItem), total, nextCursor };
};

/** All of a workspace's subscriptions (at most MAX_SUBSCRIPTIONS). */
export const tenantSubscriptions = async (tenant: Tenant): Promise<Subscription[]> =>
  (await collect(queryAll({ pk: tenantPk(tenant), skPrefix: `${K.WHSUB}#` }))).map(fromItem);

/** Every subscription of every workspace, one page at a time (the sweeper's walk). */
export async function* everySubscription(): AsyncGenerator<Subscription> {
  for await (const item of queryAll({ index: 'gsi1', pk: ALL_SUBSCRIPTIONS })) yield fromItem(item);
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
  before: Subscription,
  secrets: Pick<Subscription, 'secret' | 'previousSecrets'>,
  now: Date,
): Promise<Subscription> => {
  const fields = { ...secrets, updatedAt: now.toISOString() };
  await transact(
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
