import type { Tenant } from '../domain/auth/tenant';
import { Missing } from '../domain/refusal';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import { objectId } from '../ids';
import { buildEnvelope, diff } from '../events/envelope';
import {
  errored,
  newAccount,
  patchAccount,
  transition,
  type Account,
  type AccountAction,
  type CreateChannel,
  type Secrets,
  type UpdateChannel,
} from '../domain/channels/account';
import { bumpCounter, readCounter } from './counters';
import { tenantPk } from './keys';
import { outboxItem } from './outbox';
import { queryPage, type PageRequest } from './query';
import { lostRace, retryOnConflict } from './retry';
import { conditionCheck, createItem, deleteItem, transact, type Write } from './transact';
import { versionedUpdate } from './versioned';
import { K } from './registry/registry';
import { itemCodec } from './codec';
import { account as accountView } from '../views/channels';

/**
 * Channel accounts: pk=<tenant> sk=CHANNEL#<id>, listed by that prefix (oldest first), counted by the
 * workspace counter `channels`. The secrets are one sealed attribute (`sealedSecrets`), stored as the
 * channels service sealed it (shared/channels/secrets.ts); only the reads named `sealed…` return it.
 */
export const channelKey = (tenant: Tenant, id: string) => ({ pk: tenantPk(tenant), sk: `${K.CHANNEL}#${id}` });
const key = channelKey;
const COUNTER = 'channels';

/** The item's `type` names the entity (CHANNEL); the account's own type is stored as `channelType`. */
const decode = itemCodec(accountView);
const fromItem = (item: Record<string, unknown>): Account => decode({ ...item, type: item.channelType });
const toItem = (tenant: Tenant, a: Account, sealedSecrets: string) => {
  const { type, ...fields } = a;
  return { ...key(tenant, a._id), type: 'CHANNEL', channelType: type, version: 1, ...fields, sealedSecrets };
};

/** Seals and opens an account's secrets, bound to the tenant and the account id. */
export interface ChannelSealer {
  seal(tenant: Tenant, id: string, secrets: Secrets): Promise<string>;
  open(tenant: Tenant, id: string, sealed: string): Promise<Secrets>;
}

export interface SealedChannel {
  account: Account;
  sealed: string;
}

interface Stored {
  account: Account;
  version: number;
  sealed: string;
}

const readStored = async (tenant: Tenant, id: string): Promise<Stored | undefined> => {
  const { Item } = await dynamo().send(new GetCommand({ TableName: config().TABLE_NAME, Key: key(tenant, id), ConsistentRead: true }));
  return Item ? { account: fromItem(Item), version: Item.version as number, sealed: Item.sealedSecrets as string } : undefined;
};

const requireStored = async (tenant: Tenant, id: string): Promise<Stored> => {
  const stored = await readStored(tenant, id);
  if (!stored) throw new Missing('Channel');
  return stored;
};

export const getChannel = async (tenant: Tenant, id: string): Promise<Account | undefined> => (await readStored(tenant, id))?.account;
export const requireChannel = async (tenant: Tenant, id: string): Promise<Account> => (await requireStored(tenant, id)).account;

/** The account with its sealed secrets: for the code that talks to its provider, never for a response. */
export const sealedChannel = async (tenant: Tenant, id: string): Promise<SealedChannel | undefined> => {
  const { Item } = await dynamo().send(new GetCommand({ TableName: config().TABLE_NAME, Key: key(tenant, id), ConsistentRead: true }));
  return Item && sealedChannelOf(Item);
};

/** A channel item read by the caller (at `channelKey`), with its sealed secrets. */
export const sealedChannelOf = (item: Record<string, unknown>): SealedChannel => ({
  account: fromItem(item),
  sealed: item.sealedSecrets as string,
});

const event = (type: Parameters<typeof buildEnvelope>[0], tenant: Tenant, account: Account, now: Date, changes?: ReturnType<typeof diff>) =>
  outboxItem(buildEnvelope(type, tenant, { account }, { changes, now }));

/** Creates a connected account; returns it with its signing secret, which the caller shows once. */
export const createChannel = async (
  tenant: Tenant,
  input: CreateChannel,
  now: Date,
  sealer: ChannelSealer,
): Promise<{ account: Account; signingSecret: string }> => {
  const { account, secrets } = newAccount(objectId(now.getTime()), input, now);
  await transact([
    createItem(toItem(tenant, account, await sealer.seal(tenant, account._id, secrets))),
    bumpCounter(tenant, COUNTER, 1),
    event('channel.account.connected', tenant, account, now),
  ]);
  return { account, signingSecret: secrets.signingSecret! };
};

export const listChannels = async (tenant: Tenant, page: PageRequest) => {
  const [{ items, nextCursor }, total] = await Promise.all([
    queryPage({ pk: tenantPk(tenant), skPrefix: `${K.CHANNEL}#` }, page),
    readCounter(tenant, COUNTER),
  ]);
  return { channels: items.map(fromItem), total, nextCursor };
};

const versioned = (tenant: Tenant, stored: Stored, after: Account, extra: Record<string, unknown> = {}): Write =>
  versionedUpdate(key(tenant, after._id), stored.version, stored.account, after, { set: extra });

/**
 * A PATCH; secrets given replace those of the same name, re-sealed. Nothing changed: no write, no event.
 * `check` vets the account as it would be saved (e.g. its target address) before anything is written.
 */
export const updateChannel = (
  tenant: Tenant,
  id: string,
  patch: UpdateChannel,
  now: Date,
  { check, sealer }: { check: (after: Account) => Promise<void>; sealer: ChannelSealer },
): Promise<Account> =>
  retryOnConflict(async () => {
    const stored = await requireStored(tenant, id);
    const current = await sealer.open(tenant, id, stored.sealed);
    const next = patchAccount(stored.account, current, patch, now);
    if (!next) return stored.account;
    await check(next.account);
    const sealed = patch.secrets ? { sealedSecrets: await sealer.seal(tenant, id, next.secrets) } : {};
    const changes = diff(stored.account, next.account);
    await transact(
      [versioned(tenant, stored, next.account, sealed), event('channel.account.updated', tenant, next.account, now, changes)],
      lostRace,
    );
    return next.account;
  });

export const changeChannelStatus = (tenant: Tenant, id: string, action: AccountAction, now: Date): Promise<Account> =>
  retryOnConflict(async () => {
    const stored = await requireStored(tenant, id);
    const after = transition(stored.account, action, now);
    const type = action === 'connect' ? 'channel.account.connected' : 'channel.account.disconnected';
    await transact(
      [
        versioned(tenant, stored, after),
        event(type, tenant, after, now, diff({ status: stored.account.status }, { status: after.status })),
      ],
      lostRace,
    );
    return after;
  });

/** Marks a connected account `error` (a provider refused its credentials); a no-op when it is not connected. */
export const markChannelErrored = (tenant: Tenant, id: string, reason: string, now: Date): Promise<void> =>
  retryOnConflict(async () => {
    const stored = await readStored(tenant, id);
    if (stored?.account.status !== 'connected') return;
    const after = errored(stored.account, reason, now);
    await transact(
      [
        versioned(tenant, stored, after),
        event('channel.account.errored', tenant, after, now, diff({ status: stored.account.status }, { status: after.status })),
      ],
      lostRace,
    );
  });

export const deleteChannel = (tenant: Tenant, id: string, now: Date): Promise<Account> =>
  retryOnConflict(async () => {
    const stored = await requireStored(tenant, id);
    await transact(
      [
        deleteItem(key(tenant, id), { condition: 'version = :v', values: { ':v': stored.version } }),
        bumpCounter(tenant, COUNTER, -1),
        event('channel.account.deleted', tenant, stored.account, now),
      ],
      lostRace,
    );
    return stored.account;
  });

/** A condition that the account exists, for writes that name it (a conversation, a broadcast). */
export const channelExists = (tenant: Tenant, id: string, onFail: () => Error): Write =>
  conditionCheck(key(tenant, id), { condition: 'attribute_exists(pk)', onFail });
