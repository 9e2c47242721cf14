import type { Tenant } from '../domain/auth/tenant';
import { sandboxSend } from './registry/channels';
import { updateItem, type Write } from './transact';

/** What the simulated provider records of one send. */
export interface SandboxSend {
  kind: string;
  customerId: string;
  content: string | null;
}

/**
 * The simulated provider's "network" is its own log in the table (registry/channels.ts), whose
 * `sends` counter is bumped in the same transaction that records the send: a send is committed once or not at
 * all, so `sends` is exactly the number of times the provider accepted it.
 */
export const sandboxSendLog = (tenant: Tenant, channelId: string, key: string, send: SandboxSend): Write =>
  updateItem(
    sandboxSend.key({ tenant, channelId, sendKey: key }),
    'SET #type = :type, kind = :kind, customerId = :customer, content = :content ADD sends :one',
    {
      names: { '#type': 'type' },
      values: { ':type': 'SANDBOX_SEND', ':kind': send.kind, ':customer': send.customerId, ':content': send.content, ':one': 1 },
    },
  );
