import type { Tenant } from '../domain/auth/tenant';
import type { SandboxConfig } from '../domain/channels/account';
import { tenantPk } from '../data/keys';
import { updateItem } from '../data/transact';
import type { z } from 'zod';
import type { Provider } from './provider';
import { K } from '../data/registry/registry';

/**
 * The simulated provider. Its "network" is its own log in the table, pk=<tenant>#SANDBOX#<channel>
 * sk=<key>, whose `sends` counter is bumped in the same transaction that records the send: a send is
 * committed once or not at all, so `sends` is exactly the number of times the provider accepted it.
 */
const sandboxLogKey = (tenant: Tenant, channelId: string, key: string) => ({ pk: tenantPk(tenant, K.SANDBOX, channelId), sk: key });

export const sandboxProvider: Provider = {
  send: async (account, _secrets, outbound) => {
    const config = account.config as z.output<typeof SandboxConfig>;
    if (config.failWith) return { ok: false, reason: config.failWith, retryable: false };
    const receipts: ('delivered' | 'read')[] = config.read ? ['delivered', 'read'] : config.deliver ? ['delivered'] : [];
    const log = updateItem(
      sandboxLogKey(outbound.tenant, account._id, outbound.key),
      'SET #type = :type, kind = :kind, customerId = :customer, content = :content ADD sends :one',
      {
        names: { '#type': 'type' },
        values: { ':type': 'SANDBOX_SEND', ':kind': outbound.kind, ':customer': outbound.to._id, ':content': outbound.content, ':one': 1 },
      },
    );
    return { ok: true, providerMessageId: `sbx_${outbound.key}`, writes: [log], receipts };
  },
};
