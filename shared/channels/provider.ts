import type { Tenant } from '../domain/auth/tenant';
import type { Account, Secrets } from '../domain/channels/account';
import type { Customer } from '../domain/contacts/customer';
import type { MessageAttachment } from '../domain/inbox/message';
import type { Write } from '../data/transact';

/** One thing to send through a channel account: a conversation reply or a broadcast to one recipient. */
interface Outbound {
  tenant: Tenant;
  /** Stable across every attempt (the message id, or `<broadcastId>.<customerId>`): the provider's idempotency key. */
  key: string;
  kind: 'message' | 'broadcast';
  to: Customer;
  content: string | null;
  /** Files go as themselves; a message stored before files existed may carry legacy links instead. */
  attachments: MessageAttachment[];
  subject: string | null;
  /** Email threading: the Message-IDs this one answers (oldest first). */
  references: string[];
  /** What the `api` channel's POST carries besides the content (the message and conversation, or the broadcast). */
  context: Record<string, unknown>;
  attempt: number;
}

export type SendResult =
  | {
      ok: true;
      providerMessageId: string;
      /** Writes that commit together with the `sent` record (the sandbox's own log). */
      writes: Write[];
      /** Receipts the provider reports at once (the sandbox's configured ones). */
      receipts: ('delivered' | 'read')[];
    }
  | {
      ok: false;
      reason: string;
      retryable: boolean;
      retryAfterMs?: number;
      /** The provider refused the account itself (credentials, address): the account goes to `error`. */
      accountError?: boolean;
    };

export interface Provider {
  send(account: Account, secrets: Secrets, outbound: Outbound): Promise<SendResult>;
}
