import type { ApiConfig } from '../domain/channels/account';
import { deliveryHeaders } from '../domain/webhooks/sign';
import { config } from '../config';
import { postWebhook } from '../outbound/https';
import type { z } from 'zod';
import type { Provider } from './provider';

/** Statuses that mean the owner's endpoint refuses this account: retrying cannot help. */
const ACCOUNT_REFUSED = new Set([401, 403, 410]);

/**
 * The `api` channel: the outgoing message is POSTed to the owner's HTTPS URL, signed and sent exactly as a
 * webhook delivery is (same headers, same SSRF pinning, 10 s timeout, no redirects). The key is both the
 * webhook id and `Idempotency-Key`, identical on every attempt, so the receiver can drop a repeat.
 */
export const apiProvider: Provider = {
  send: async (account, secrets, outbound) => {
    const { url } = account.config as z.output<typeof ApiConfig>;
    // A send request, not a domain event: its type is deliberately not shaped like a catalog name.
    const eventType = outbound.kind === 'message' ? 'outgoing_message' : 'broadcast_message';
    const body = JSON.stringify({
      id: outbound.key,
      type: eventType,
      channelId: account._id,
      to: { customerId: outbound.to._id, email: outbound.to.email, phone: outbound.to.phone, identities: outbound.to.identities },
      content: outbound.content,
      attachments: outbound.attachments,
      ...outbound.context,
    });
    const headers = deliveryHeaders(secrets.signingSecret!, body, {
      eventId: outbound.key,
      eventType,
      deliveryId: outbound.key,
      attemptNumber: outbound.attempt,
      timestamp: Math.floor(Date.now() / 1000),
    });
    const { outcome } = await postWebhook(
      url,
      body,
      { ...headers, 'User-Agent': 'Parley-Channels/1.0', 'Idempotency-Key': outbound.key },
      {
        allowLoopback: config().WEBHOOK_ALLOW_PRIVATE_TARGETS,
      },
    );
    if (outcome.kind === 'success') return { ok: true, providerMessageId: outbound.key, writes: [], receipts: [] };
    const refused =
      outcome.failureReason === 'ssrf_blocked' || (outcome.httpStatus !== undefined && ACCOUNT_REFUSED.has(outcome.httpStatus));
    return { ok: false, reason: outcome.failureReason, retryable: !refused, retryAfterMs: outcome.retryAfterMs, accountError: refused };
  },
};
