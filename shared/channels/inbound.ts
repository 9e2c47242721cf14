import type { Tenant } from '../domain/auth/tenant';
import { AppError, ConflictError, NotFoundError, ValidationError } from '../domain/errors';
import { conversationChannelOf, type Account } from '../domain/channels/account';
import { messageIdsIn } from '../domain/channels/email-threading';
import type { InboundEvent } from '../domain/channels/inbound';
import { INBOUND_SIGNATURE_HEADER } from '../domain/channels/inbound';
import { verifySignature } from '../domain/webhooks/sign';
import { channelWithSecrets } from './secrets';
import { findSend } from '../data/channel-sends';
import { conversationOfEmail, emailThread, threadWrites } from '../data/email-threads';
import { changeDeliveryStatus } from './delivery';
import { receiveIncoming, type Incoming } from './incoming';
import type { Unit } from '../data/unit';
import { recipientReceipt } from './receipts';
import { resolveAttachments, storeReceivedFiles } from '../files/files';

const incoming = async (unit: Unit, tenant: Tenant, account: Account, input: Incoming, now: Date) => {
  const { message, conversation, duplicate } = await receiveIncoming(
    unit,
    tenant,
    { ...input, channel: conversationChannelOf(account.type), channelId: account._id },
    now,
  );
  return { message, conversation, duplicate };
};

/** A raw email: the sender becomes (or finds) the customer; References / In-Reply-To thread it into its conversation. */
const incomingEmail = async (unit: Unit, tenant: Tenant, account: Account, mime: string, now: Date) => {
  if (account.type !== 'email') throw new ValidationError([{ path: 'type', message: 'Only email channels take raw email' }]);
  // The MIME parser (76 KB) only for email channels, so the route's other channels start without it.
  const { default: PostalMime } = await import('postal-mime');
  const parsed = await PostalMime.parse(mime);
  const from = parsed.from;
  if (!from?.address) throw new ValidationError([{ path: 'mime', message: 'The email has no From address' }]);
  const [messageId] = messageIdsIn(parsed.messageId);
  // The newest ids are the likeliest known; a long References chain is cut to its last 50.
  const threadIds = [...new Set([...messageIdsIn(parsed.inReplyTo), ...messageIdsIn(parsed.references).reverse()])].slice(0, 50);
  const conversationId = await conversationOfEmail(tenant, threadIds);
  const address = from.address.toLowerCase();
  const attachments = await storeReceivedFiles(
    unit,
    tenant,
    parsed.attachments.map((a) => ({
      name: a.filename ?? 'attachment',
      contentType: a.mimeType,
      // postal-mime answers binary content as an ArrayBuffer unless asked for a string encoding (it is not).
      bytes: typeof a.content === 'string' ? Buffer.from(a.content, 'utf8') : new Uint8Array(a.content),
    })),
    now,
  );
  const received = await incoming(
    unit,
    tenant,
    account,
    {
      channel: 'email',
      customer: { identifier: address, email: address, ...(from.name ? { name: from.name.slice(0, 200) } : {}) },
      content: (parsed.text ?? '').trim().slice(0, 10_000) || (attachments.length ? undefined : (parsed.subject ?? '(no content)')),
      attachments,
      externalId: messageId?.slice(0, 200),
      conversationId,
    },
    now,
  );
  if (messageId && !received.duplicate) {
    await unit.commit(threadWrites(tenant, received.conversation._id, await emailThread(tenant, received.conversation._id), messageId));
  }
  return received;
};

/** A channel's receipt for something it sent: moves the message's, or the broadcast recipient's, status on. */
const receipt = async (unit: Unit, tenant: Tenant, account: Account, event: Extract<InboundEvent, { type: 'status' }>, now: Date) => {
  const sent = await findSend(tenant, account._id, event.id);
  if (!sent) throw new NotFoundError('Outgoing message');
  if (sent.target === 'recipient')
    return { recipient: await recipientReceipt(tenant, sent.broadcastId, sent.customerId, event.status, event.reason, now) };
  const message = await changeDeliveryStatus(
    unit,
    tenant,
    sent.ref,
    { status: event.status, reason: event.reason ?? 'provider_reported' },
    now,
  );
  return { applied: message !== undefined };
};

/**
 * `POST /channels/{id}/inbound`: verifies the HMAC over the raw body with the account's signing secret
 * (401 when it does not match), then records an incoming message, a raw email, or a status receipt.
 */
export const receiveInbound = async (
  unit: Unit,
  tenant: Tenant,
  channelId: string,
  event: InboundEvent,
  raw: { body: string; signature?: string },
  now: Date,
) => {
  const channel = await channelWithSecrets(tenant, channelId);
  if (!channel) throw new NotFoundError('Channel');
  if (!verifySignature(channel.secrets.signingSecret!, raw.body, raw.signature)) {
    throw new AppError(
      'UNAUTHORIZED',
      `Missing or invalid ${INBOUND_SIGNATURE_HEADER}: expected sha256=<hex HMAC-SHA256(signing secret, raw body)>`,
    );
  }
  const { account } = channel;
  if (account.status === 'disconnected') throw new ConflictError('Channel is disconnected', { status: account.status });
  if (event.type === 'status') return { type: event.type, ...(await receipt(unit, tenant, account, event, now)) };
  if (event.type === 'email') return { type: event.type, ...(await incomingEmail(unit, tenant, account, event.mime, now)) };
  const { type: _type, attachments: refs, ...message } = event;
  const attachments = await resolveAttachments(tenant, refs, message.conversationId, now);
  return {
    type: event.type,
    ...(await incoming(unit, tenant, account, { ...message, attachments, channel: conversationChannelOf(account.type) }, now)),
  };
};
