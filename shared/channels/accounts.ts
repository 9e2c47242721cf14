import type { Tenant } from '../domain/auth/tenant';
import { newAccount, patchAccount, type Account, type CreateChannel, type UpdateChannel } from '../domain/channels/account';
import { diff } from '../events/envelope';
import { objectId } from '../ids';
import { channelCreation, channelUpdate } from '../data/channels';
import { lostRace, retryOnConflict } from '../data/retry';
import type { Unit } from '../data/unit';
import { channelEvent, requireStoredChannel } from './account-records';
import { channelSealer } from './secrets';
import { assertChannelTarget } from './targets';

/** Creates a connected account once its target passed the check; returns it with its signing secret, shown once. */
export const createChannel = async (
  unit: Unit,
  tenant: Tenant,
  input: CreateChannel,
  now: Date,
): Promise<{ account: Account; signingSecret: string }> => {
  await assertChannelTarget(input.type, input.config);
  const { account, secrets } = newAccount(objectId(now.getTime()), input, now);
  await unit.commit([
    ...channelCreation(tenant, account, await channelSealer.seal(tenant, account._id, secrets)),
    channelEvent('channel.account.connected', tenant, account, now),
  ]);
  return { account, signingSecret: secrets.signingSecret! };
};

/**
 * A PATCH; secrets given replace those of the same name, re-sealed. Nothing changed: no write, no event.
 * The account as it would be saved has its target checked before anything is written.
 */
export const updateChannel = (unit: Unit, tenant: Tenant, id: string, patch: UpdateChannel, now: Date): Promise<Account> =>
  retryOnConflict(async () => {
    const stored = await requireStoredChannel(tenant, id);
    const current = await channelSealer.open(tenant, id, stored.sealed);
    const next = patchAccount(stored.account, current, patch, now);
    if (!next) return stored.account;
    await assertChannelTarget(next.account.type, next.account.config);
    const sealed = patch.secrets ? { sealedSecrets: await channelSealer.seal(tenant, id, next.secrets) } : {};
    await unit.commit(
      [
        channelUpdate(tenant, stored, next.account, sealed),
        channelEvent('channel.account.updated', tenant, next.account, now, diff(stored.account, next.account)),
      ],
      lostRace,
    );
    return next.account;
  });
