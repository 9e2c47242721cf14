import { ACK, later, type Verdict } from '../domain/verdict';
import { markChannelErrored } from './account-records';
import { channelWithSecrets } from './secrets';
import { sendRecord } from '../data/channel-sends';
import { getConversation } from '../data/conversations';
import { getCustomer } from '../data/customers';
import { emailThread, threadWrites } from '../data/email-threads';
import { claimSend, postponeSend, readSendState } from '../data/message-delivery';
import { changeDeliveryStatus } from './delivery';
import { providers } from './providers';
import { sendOutcome } from './outcome';
import type { OutgoingMessage } from './queue';
import { direct } from '../data/unit';

/** Longer than the worker's timeout (one provider call, 10 s), shorter than the queue's visibility timeout (see wiring). */
const SEND_LEASE_MS = 20_000;

/**
 * Sends one outgoing message through its conversation's channel account, at most once per attempt and
 * never again once sent: the send needs a lease on a still-pending message, and its `sent` record commits
 * only while that lease is held. A worker that dies mid-send leaves the lease to expire; the message
 * comes back and is retried with the same idempotency key (the sandbox records the send atomically with
 * the status, so it is accepted exactly once).
 */
export const handleOutgoing = async (m: OutgoingMessage): Promise<Verdict> => {
  const { tenant } = m;
  const state = await readSendState(tenant, m);
  if (state?.message.deliveryStatus !== 'pending') return ACK;
  const now = Date.now();
  if (state.leaseUntil !== undefined && state.leaseUntil >= now) return later(state.leaseUntil - now + 1000);
  if (state.notBefore !== undefined && state.notBefore > now) return later(state.notBefore - now);
  const lease = now + SEND_LEASE_MS;
  const attempts = await claimSend(tenant, m, now, lease);
  if (attempts === undefined) return later(1000);
  const fail = (reason: string) => changeDeliveryStatus(direct, tenant, m, { status: 'failed', reason, lease }, new Date()).then(() => ACK);

  const conversation = (await getConversation(tenant, m.conversationId))?.conversation;
  const channel = conversation?.channelId ? await channelWithSecrets(tenant, conversation.channelId) : undefined;
  if (!conversation || !channel) return fail('channel_deleted');
  if (channel.account.status !== 'connected') return fail(channel.account.status === 'error' ? 'channel_error' : 'channel_disconnected');
  const customer = (await getCustomer(tenant, conversation.customerId))?.customer;
  if (!customer) return fail('customer_deleted');
  if (customer.blocked) return fail('customer_blocked');

  const thread = channel.account.type === 'email' ? await emailThread(tenant, conversation._id) : [];
  const { message } = state;
  const result = await providers[channel.account.type].send(channel.account, channel.secrets, {
    tenant,
    key: message._id,
    kind: 'message',
    to: customer,
    content: message.content,
    attachments: message.attachments,
    subject: conversation.subject,
    references: thread,
    context: { message, conversation },
    attempt: attempts,
  });
  return sendOutcome(
    result,
    { tenant, channelId: channel.account._id, key: message._id, kind: 'reply' },
    {
      sent: async (r) => {
        const writes = [
          ...r.writes,
          sendRecord(tenant, channel.account._id, message._id, {
            target: 'message',
            ref: { _id: m._id, conversationId: m.conversationId, createdAt: m.createdAt },
          }),
          ...(channel.account.type === 'email' ? threadWrites(tenant, conversation._id, thread, r.providerMessageId) : []),
        ];
        const sent = await changeDeliveryStatus(
          direct,
          tenant,
          m,
          { status: 'sent', providerMessageId: r.providerMessageId, lease, writes },
          new Date(),
        );
        if (sent) for (const status of r.receipts) await changeDeliveryStatus(direct, tenant, m, { status }, new Date());
        return ACK;
      },
      retry: async (delayMs) => {
        await postponeSend(direct, tenant, m, lease, Date.now() + delayMs);
        return later(delayMs);
      },
      failed: async (reason, accountError) => {
        if (accountError) await markChannelErrored(direct, tenant, channel.account._id, reason, new Date());
        return fail(reason);
      },
      attempts,
    },
  );
};
