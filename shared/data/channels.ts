import type { Tenant } from '../domain/auth/tenant';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import { objectId } from '../ids';
import { buildEnvelope, diff } from '../events/envelope';
import { NotFoundError } from '../domain/errors';
import { errored, newAccount, patchAccount, transition, type Account, type AccountAction, type CreateChannel, type Secrets, type UpdateChannel } from '../domain/channels/account';
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
export const channelKey = (ws: Tenant, id: string) => ({ pk: tenantPk(ws), sk: `${K.CHANNEL}#${id}` });
const key = channelKey;
const COUNTER = 'channels';

/** The item's `type` names the entity (CHANNEL); the account's own type is stored as `channelType`. */
const decode = itemCodec(accountView);
const fromItem = (item: Record<string, unknown>): Account => decode({ ...item, type: item.channelType });
const toItem = (ws: Tenant, a: Account, sealedSecrets: string) => {
  const { type, ...fields } = a;
  return { ...key(ws, a._id), type: 'CHANNEL', channelType: type, version: 1, ...fields, sealedSecrets };
};

/** Seals and opens an account's secrets, bound to the tenant and the account id. */
export interface ChannelSealer {
  seal(ws: Tenant, id: string, secrets: Secrets): Promise<string>;
  open(ws: Tenant, id: string, sealed: string): Promise<Secrets>;
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

const readStored = async (ws: Tenant, id: string): Promise<Stored | undefined> => {
  const { Item } = await dynamo().send(new GetCommand({ TableName: config().TABLE_NAME, Key: key(ws, id), ConsistentRead: true }));
  return Item ? { account: fromItem(Item), version: Item.version as number, sealed: Item.sealedSecrets as string } : undefined;
};

const requireStored = async (ws: Tenant, id: string): Promise<Stored> => {
  const stored = await readStored(ws, id);
  if (!stored) throw new NotFoundError('Channel');
  return stored;
};

export const getChannel = async (ws: Tenant, id: string): Promise<Account | undefined> => (await readStored(ws, id))?.account;
export const requireChannel = async (ws: Tenant, id: string): Promise<Account> => (await requireStored(ws, id)).account;

/** The account with its sealed secrets: for the code that talks to its provider, never for a response. */
export const sealedChannel = async (ws: Tenant, id: string): Promise<SealedChannel | undefined> => {
  const { Item } = await dynamo().send(new GetCommand({ TableName: config().TABLE_NAME, Key: key(ws, id), ConsistentRead: true }));
  return Item && sealedChannelOf(Item);
};

/** A channel item read by the caller (at `channelKey`), with its sealed secrets. */
export const sealedChannelOf = (item: Record<string, unknown>): SealedChannel => ({ account: fromItem(item), sealed: item.sealedSecrets as string });

const event = (type: Parameters<typeof buildEnvelope>[0], ws: Tenant, account: Account, now: Date, changes?: ReturnType<typeof diff>) =>
  outboxItem(buildEnvelope(type, ws, { account }, { changes, now }));

/** Creates a connected account; returns it with its signing secret, which the caller shows once. */
export const createChannel = async (ws: Tenant, input: CreateChannel, now: Date, sealer: ChannelSealer): Promise<{ account: Account; signingSecret: string }> => {
  const { account, secrets } = newAccount(objectId(now.getTime()), input, now);
  await transact([
    createItem(toItem(ws, account, await sealer.seal(ws, account._id, secrets))),
    bumpCounter(ws, COUNTER, 1),
    event('channel.account.connected', ws, account, now),
  ]);
  return { account, signingSecret: secrets.signingSecret! };
};

export const listChannels = async (ws: Tenant, page: PageRequest) => {
  const [{ items, nextCursor }, total] = await Promise.all([queryPage({ pk: tenantPk(ws), skPrefix: `${K.CHANNEL}#` }, page), readCounter(ws, COUNTER)]);
  return { channels: items.map(fromItem), total, nextCursor };
};

const versioned = (ws: Tenant, stored: Stored, after: Account, extra: Record<string, unknown> = {}): Write =>
  versionedUpdate(key(ws, after._id), stored.version, stored.account, after, { set: extra });

/**
 * A PATCH; secrets given replace those of the same name, re-sealed. Nothing changed: no write, no event.
 * `check` vets the account as it would be saved (e.g. its target address) before anything is written.
 */
export const updateChannel = (
  ws: Tenant,
  id: string,
  patch: UpdateChannel,
  now: Date,
  { check, sealer }: { check: (after: Account) => Promise<void>; sealer: ChannelSealer },
): Promise<Account> =>
  retryOnConflict(async () => {
    const stored = await requireStored(ws, id);
    const current = await sealer.open(ws, id, stored.sealed);
    const next = patchAccount(stored.account, current, patch, now);
    if (!next) return stored.account;
    await check(next.account);
    const sealed = patch.secrets ? { sealedSecrets: await sealer.seal(ws, id, next.secrets) } : {};
    const changes = diff(stored.account, next.account);
    await transact([versioned(ws, stored, next.account, sealed), event('channel.account.updated', ws, next.account, now, changes)], lostRace);
    return next.account;
  });

export const changeChannelStatus = (ws: Tenant, id: string, action: AccountAction, now: Date): Promise<Account> =>
  retryOnConflict(async () => {
    const stored = await requireStored(ws, id);
    const after = transition(stored.account, action, now);
    const type = action === 'connect' ? 'channel.account.connected' : 'channel.account.disconnected';
    await transact([versioned(ws, stored, after), event(type, ws, after, now, diff({ status: stored.account.status }, { status: after.status }))], lostRace);
    return after;
  });

/** Marks a connected account `error` (a provider refused its credentials); a no-op when it is not connected. */
export const markChannelErrored = (ws: Tenant, id: string, reason: string, now: Date): Promise<void> =>
  retryOnConflict(async () => {
    const stored = await readStored(ws, id);
    if (!stored || stored.account.status !== 'connected') return;
    const after = errored(stored.account, reason, now);
    await transact([versioned(ws, stored, after), event('channel.account.errored', ws, after, now, diff({ status: stored.account.status }, { status: after.status }))], lostRace);
  });

export const deleteChannel = (ws: Tenant, id: string, now: Date): Promise<Account> =>
  retryOnConflict(async () => {
    const stored = await requireStored(ws, id);
    await transact(
      [
        deleteItem(key(ws, id), { condition: 'version = :v', values: { ':v': stored.version } }),
        bumpCounter(ws, COUNTER, -1),
        event('channel.account.deleted', ws, stored.account, now),
      ],
      lostRace,
    );
    return stored.account;
  });

/** A condition that the account exists, for writes that name it (a conversation, a broadcast). */
export const channelExists = (ws: Tenant, id: string, onFail: () => Error): Write =>
  conditionCheck(key(ws, id), { condition: 'attribute_exists(pk)', onFail });
