import type { Tenant } from '../domain/auth/tenant';
import type { Account, CreateChannel, UpdateChannel } from '../domain/channels/account';
import * as channels from '../data/channels';
import { channelSealer } from './secrets';
import { assertChannelTarget } from './targets';

/** Creates a connected account once its target passed the check; returns it with its signing secret, shown once. */
export const createChannel = async (
  tenant: Tenant,
  input: CreateChannel,
  now: Date,
): Promise<{ account: Account; signingSecret: string }> => {
  await assertChannelTarget(input.type, input.config);
  return channels.createChannel(tenant, input, now, channelSealer);
};

/** A PATCH, its result's target checked before anything is written. */
export const updateChannel = (tenant: Tenant, id: string, patch: UpdateChannel, now: Date): Promise<Account> =>
  channels.updateChannel(tenant, id, patch, now, {
    check: (after) => assertChannelTarget(after.type, after.config),
    sealer: channelSealer,
  });
