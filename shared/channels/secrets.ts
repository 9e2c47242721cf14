import type { Account, Secrets } from '../domain/channels/account';
import { sealedChannel, sealedChannelOf, type ChannelSealer } from '../data/channels';
import { secretBox } from '../secrets/box';

const context = (ws: string, id: string) => ({ workspace: ws, channel: id });

/** An account's secrets sealed with the deployment's key, bound to the tenant and the account id. */
export const channelSealer: ChannelSealer = {
  seal: (ws, id, secrets) => secretBox().seal(JSON.stringify(secrets), context(ws, id)),
  open: async (ws, id, sealed) => JSON.parse(await secretBox().open(sealed, context(ws, id))) as Secrets,
};

interface OpenedChannel {
  account: Account;
  secrets: Secrets;
}

/** A channel item read by the caller (at `channelKey`), with its secrets opened. */
export const openChannel = async (ws: string, item: Record<string, unknown>): Promise<OpenedChannel> => {
  const { account, sealed } = sealedChannelOf(item);
  return { account, secrets: await channelSealer.open(ws, account._id, sealed) };
};

/** The account with its secrets opened: for the code that talks to its provider, never for a response. */
export const channelWithSecrets = async (ws: string, id: string): Promise<OpenedChannel | undefined> => {
  const stored = await sealedChannel(ws, id);
  return stored && { account: stored.account, secrets: await channelSealer.open(ws, id, stored.sealed) };
};
