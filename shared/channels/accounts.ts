import type { Account, CreateChannel, UpdateChannel } from '../domain/channels/account';
import * as channels from '../data/channels';
import { channelSealer } from './secrets';
import { assertChannelTarget } from './targets';

/** Creates a connected account once its target passed the check; returns it with its signing secret, shown once. */
export const createChannel = async (ws: string, input: CreateChannel, now: Date): Promise<{ account: Account; signingSecret: string }> => {
  await assertChannelTarget(input.type, input.config);
  return channels.createChannel(ws, input, now, channelSealer);
};

/** A PATCH, its result's target checked before anything is written. */
export const updateChannel = (ws: string, id: string, patch: UpdateChannel, now: Date): Promise<Account> =>
  channels.updateChannel(ws, id, patch, now, { check: (after) => assertChannelTarget(after.type, after.config), sealer: channelSealer });
