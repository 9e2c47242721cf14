import type { Tenant } from '../domain/auth/tenant';
import type { Account, Secrets } from '../domain/channels/account';
import { sealedChannel, sealedChannelOf } from '../data/channels';
import { secretBox } from '../secrets/box';

const context = (tenant: Tenant, id: string) => ({ workspace: tenant, channel: id });

/** Seals and opens an account's secrets, bound to the tenant and the account id. */
interface ChannelSealer {
  seal(tenant: Tenant, id: string, secrets: Secrets): Promise<string>;
  open(tenant: Tenant, id: string, sealed: string): Promise<Secrets>;
}

/** An account's secrets sealed with the deployment's key, bound to the tenant and the account id. */
export const channelSealer: ChannelSealer = {
  seal: (tenant, id, secrets) => secretBox().seal(JSON.stringify(secrets), context(tenant, id)),
  open: async (tenant, id, sealed) => JSON.parse(await secretBox().open(sealed, context(tenant, id))) as Secrets,
};

interface OpenedChannel {
  account: Account;
  secrets: Secrets;
}

/** A channel item read by the caller (at `channelKey`), with its secrets opened. */
export const openChannel = async (tenant: Tenant, item: Record<string, unknown>): Promise<OpenedChannel> => {
  const { account, sealed } = sealedChannelOf(item);
  return { account, secrets: await channelSealer.open(tenant, account._id, sealed) };
};

/** The account with its secrets opened: for the code that talks to its provider, never for a response. */
export const channelWithSecrets = async (tenant: Tenant, id: string): Promise<OpenedChannel | undefined> => {
  const stored = await sealedChannel(tenant, id);
  return stored && { account: stored.account, secrets: await channelSealer.open(tenant, id, stored.sealed) };
};
