import type { SandboxConfig } from '../domain/channels/account';
import { sandboxSendLog } from '../data/sandbox-log';
import type { z } from 'zod';
import type { Provider } from './provider';

/** The simulated provider: it records each send in its log (`sandboxSendLog`) in the send's own transaction. */
export const sandboxProvider: Provider = {
  send: async (account, _secrets, outbound) => {
    const config = account.config as z.output<typeof SandboxConfig>;
    if (config.failWith) return { ok: false, reason: config.failWith, retryable: false };
    const receipts: ('delivered' | 'read')[] = config.read ? ['delivered', 'read'] : config.deliver ? ['delivered'] : [];
    const log = sandboxSendLog(outbound.tenant, account._id, outbound.key, {
      kind: outbound.kind,
      customerId: outbound.to._id,
      content: outbound.content,
    });
    return { ok: true, providerMessageId: `sbx_${outbound.key}`, writes: [log], receipts };
  },
};
