import type { Tenant } from '../domain/auth/tenant';
import { Missing } from '../domain/refusal';
import { errored, transition, type Account, type AccountAction } from '../domain/channels/account';
import { buildEnvelope, diff } from '../events/envelope';
import { channelDeletion, channelsPage, channelUpdate, getStoredChannel, type StoredChannel } from '../data/channels';
import { outboxItem } from '../data/outbox';
import type { PageRequest } from '../data/query';
import { lostRace, retryOnConflict } from '../data/retry';
import type { Unit } from '../data/unit';

/** Accounts as stored, read, switched or deleted: apart from `accounts.ts`, which seals, so these functions carry no KMS client. */

export const requireStoredChannel = async (tenant: Tenant, id: string): Promise<StoredChannel> => {
  const stored = await getStoredChannel(tenant, id);
  if (!stored) throw new Missing('Channel');
  return stored;
};

export const requireChannel = async (tenant: Tenant, id: string): Promise<Account> => (await requireStoredChannel(tenant, id)).account;

export const listChannels = (tenant: Tenant, page: PageRequest) => channelsPage(tenant, page);

/** `channel.account.<…>` for the account, with `changes` when it says what changed. */
export const channelEvent = (
  type: Parameters<typeof buildEnvelope>[0],
  tenant: Tenant,
  account: Account,
  now: Date,
  changes?: ReturnType<typeof diff>,
) => outboxItem(buildEnvelope(type, tenant, { account }, { changes, now }));

export const changeChannelStatus = (unit: Unit, tenant: Tenant, id: string, action: AccountAction, now: Date): Promise<Account> =>
  retryOnConflict(async () => {
    const stored = await requireStoredChannel(tenant, id);
    const after = transition(stored.account, action, now);
    const type = action === 'connect' ? 'channel.account.connected' : 'channel.account.disconnected';
    await unit.commit(
      [
        channelUpdate(tenant, stored, after),
        channelEvent(type, tenant, after, now, diff({ status: stored.account.status }, { status: after.status })),
      ],
      lostRace,
    );
    return after;
  });

/** Marks a connected account `error` (a provider refused its credentials); a no-op when it is not connected. */
export const markChannelErrored = (unit: Unit, tenant: Tenant, id: string, reason: string, now: Date): Promise<void> =>
  retryOnConflict(async () => {
    const stored = await getStoredChannel(tenant, id);
    if (stored?.account.status !== 'connected') return;
    const after = errored(stored.account, reason, now);
    await unit.commit(
      [
        channelUpdate(tenant, stored, after),
        channelEvent('channel.account.errored', tenant, after, now, diff({ status: stored.account.status }, { status: after.status })),
      ],
      lostRace,
    );
  });

export const deleteChannel = (unit: Unit, tenant: Tenant, id: string, now: Date): Promise<Account> =>
  retryOnConflict(async () => {
    const stored = await requireStoredChannel(tenant, id);
    await unit.commit([...channelDeletion(tenant, stored), channelEvent('channel.account.deleted', tenant, stored.account, now)], lostRace);
    return stored.account;
  });
