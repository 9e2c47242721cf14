import type { Tenant } from '../domain/auth/tenant';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import type { Account } from '../domain/channels/account';
import { bumpCounter, readCounter } from './counters';
import { queryPage, type PageRequest } from './query';
import { conditionCheck, createItem, deleteItem, type Write } from './transact';
import { versionedUpdate } from './versioned';
import { channel } from './registry/channels';

/** Channel accounts (keys and reads: registry/channels.ts), their secrets sealed by shared/channels/secrets.ts. */
export const channelKey = (tenant: Tenant, id: string) => channel.key({ tenant, id });
const key = channelKey;
const COUNTER = 'channels';

const read = (item: Record<string, unknown>): StoredChannel => {
  const { channelType, version, sealedSecrets, ...fields } = channel.parse(item);
  return { account: { ...fields, type: channelType }, version, sealed: sealedSecrets };
};
const fromItem = (item: Record<string, unknown>): Account => read(item).account;
const toItem = (tenant: Tenant, a: Account, sealedSecrets: string) => {
  const { type, ...fields } = a;
  return { ...key(tenant, a._id), type: 'CHANNEL', channelType: type, version: 1, ...fields, sealedSecrets };
};

export interface SealedChannel {
  account: Account;
  sealed: string;
}

export interface StoredChannel {
  account: Account;
  version: number;
  sealed: string;
}

export const getStoredChannel = async (tenant: Tenant, id: string): Promise<StoredChannel | undefined> => {
  const { Item } = await dynamo().send(new GetCommand({ TableName: config().TABLE_NAME, Key: key(tenant, id), ConsistentRead: true }));
  return Item && read(Item);
};

export const getChannel = async (tenant: Tenant, id: string): Promise<Account | undefined> => (await getStoredChannel(tenant, id))?.account;

/** The account with its sealed secrets: for the code that talks to its provider, never for a response. */
export const sealedChannel = async (tenant: Tenant, id: string): Promise<SealedChannel | undefined> => {
  const { Item } = await dynamo().send(new GetCommand({ TableName: config().TABLE_NAME, Key: key(tenant, id), ConsistentRead: true }));
  return Item && sealedChannelOf(Item);
};

/** A channel item read by the caller (at `channelKey`), with its sealed secrets. */
export const sealedChannelOf = (item: Record<string, unknown>): SealedChannel => {
  const { account, sealed } = read(item);
  return { account, sealed };
};

/** The writes that store a new account with its sealed secrets, and count it. */
export const channelCreation = (tenant: Tenant, account: Account, sealedSecrets: string): Write[] => [
  createItem(toItem(tenant, account, sealedSecrets)),
  bumpCounter(tenant, COUNTER, 1),
];

export const channelsPage = async (tenant: Tenant, page: PageRequest) => {
  const [{ items, nextCursor }, total] = await Promise.all([
    queryPage({ pk: channel.build('pk', { tenant }), skPrefix: channel.prefix('sk', {}) }, page),
    readCounter(tenant, COUNTER),
  ]);
  return { channels: items.map(fromItem), total, nextCursor };
};

/** Stores `after` over the version read, with `sealedSecrets` when they were sealed afresh. */
export const channelUpdate = (tenant: Tenant, stored: StoredChannel, after: Account, sealed: { sealedSecrets?: string } = {}): Write =>
  versionedUpdate(key(tenant, after._id), stored.version, stored.account, after, { set: sealed });

/** The writes that delete the account as read (guarded by its version) and uncount it. */
export const channelDeletion = (tenant: Tenant, stored: StoredChannel): Write[] => [
  deleteItem(key(tenant, stored.account._id), { condition: 'version = :v', values: { ':v': stored.version } }),
  bumpCounter(tenant, COUNTER, -1),
];

/** A condition that the account exists, for writes that name it (a conversation, a broadcast). */
export const channelExists = (tenant: Tenant, id: string, onFail: () => Error): Write =>
  conditionCheck(key(tenant, id), { condition: 'attribute_exists(pk)', onFail });
