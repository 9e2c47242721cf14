import type { Tenant } from '../domain/auth/tenant';
import { Refused } from '../domain/refusal';
import { newCustomer, normalizeEmail, type Customer } from '../domain/contacts/customer';
import { assertNotBlocked } from '../domain/contacts/lifecycle';
import type { Channel, Conversation } from '../domain/inbox/conversation';
import type { Attachment, MessageRef } from '../domain/inbox/message';
import { getConversation } from '../data/conversations';
import { customerCreation, customerIdBy, getCustomer } from '../data/customers';
import { contactEvent, mutateCustomer, requireCustomer } from '../contacts/customers';
import { getMessage } from '../data/messages';
import { objectId } from '../ids';
import { customerActivity, incomingGuard, recordedIncoming } from '../data/messages-incoming';
import { resolveAttachments } from '../files/files';
import { requireConversation } from '../inbox/conversations';
import { openWithMessage, postMessage, type Posted } from '../inbox/messages';
import type { Unit } from '../data/unit';

export interface Incoming {
  channel: Channel;
  customer: { identifier: string; name?: string; email?: string; phone?: string };
  content?: string;
  attachments?: Attachment[];
  /** The channel's own message id: a repeated delivery of the same id is recorded once. */
  externalId?: string;
  conversationId?: string;
  /** The channel account it arrived through: a new conversation replies through it. */
  channelId?: string;
}

class Duplicate extends Error {}

const alreadyRecorded = async (tenant: Tenant, input: Incoming): Promise<(Posted & { customer: Customer }) | undefined> => {
  if (!input.externalId) return undefined;
  const ref = await recordedIncoming(tenant, input.channel, input.externalId);
  if (!ref) return undefined;
  const { conversation } = await requireConversation(tenant, ref.conversationId);
  const message = await getMessage(tenant, ref);
  const { customer } = await requireCustomer(tenant, conversation.customerId);
  return message && { message, conversation, customer };
};

/** The sender: a stored customer, or a new one that the transaction recording its first message creates. */
interface Sender {
  customer: Customer;
  stored: boolean;
}

/**
 * The sender by channel identity, else by email or phone (then the identity is added to that customer),
 * else a new customer. A concurrent first message from the same sender makes one of the creates lose
 * on the identity guard; it then finds the winner (`receiveIncoming` runs again).
 */
const resolveSender = async (unit: Unit, tenant: Tenant, input: Incoming, now: Date, retried: boolean): Promise<Sender> => {
  const identity = { channel: input.channel, identifier: input.customer.identifier };
  const { email, phone, name } = input.customer;
  const byIdentity = await customerIdBy(tenant, { kind: 'IDENTITY', identity });
  if (byIdentity) return { customer: (await requireCustomer(tenant, byIdentity)).customer, stored: true };
  const known =
    (email ? await customerIdBy(tenant, { kind: 'EMAIL', value: normalizeEmail(email) }) : undefined) ??
    (phone ? await customerIdBy(tenant, { kind: 'PHONE', value: phone }) : undefined);
  if (!known) return { customer: newCustomer({ name, email, phone, identities: [identity] }, objectId(now.getTime()), now), stored: false };
  try {
    const customer = await mutateCustomer(
      unit,
      tenant,
      known,
      (c) => ({
        customer: { ...c, identities: [...c.identities, identity], updatedAt: now.toISOString() },
        event: 'customer.contact.updated',
      }),
      now,
    );
    return { customer, stored: true };
  } catch (error) {
    if (error instanceof Refused && !retried) return resolveSender(unit, tenant, input, now, true);
    throw error;
  }
};

/** The conversation named in the request, else the sender's latest on this channel, else none (the message opens one). */
const conversationFor = async (tenant: Tenant, { customer, stored: known }: Sender, input: Incoming): Promise<string | undefined> => {
  if (input.conversationId) {
    const stored = known ? await getConversation(tenant, input.conversationId) : undefined;
    if (!stored || stored.conversation.customerId !== customer._id) {
      throw new Refused('conversation_of_another_sender', 'No such conversation for this sender');
    }
    return stored.conversation._id;
  }
  if (!known) return undefined;
  const latest = (await getCustomer(tenant, customer._id))?.lastConversations[input.channel];
  const stored = latest ? await getConversation(tenant, latest) : undefined;
  return stored && stored.conversation.customerId === customer._id ? stored.conversation._id : undefined;
};

/**
 * The entry point channels use for a customer's message: finds the customer, records the message in the
 * sender's conversation (reopening a closed or snoozed one) or in a new one opened with it, and stamps the
 * customer's last activity. A new sender's customer is created in the same transaction as its first message
 * and conversation, so the customer item is written once. Messages from a blocked customer are refused.
 */
export const receiveIncoming = async (
  unit: Unit,
  tenant: Tenant,
  input: Incoming,
  now: Date,
  retried = false,
): Promise<Posted & { customer: Customer; duplicate: boolean }> => {
  const seen = await alreadyRecorded(tenant, input);
  if (seen) return { ...seen, duplicate: true };
  const sender = await resolveSender(unit, tenant, input, now, retried);
  const customer = sender.stored ? sender.customer : { ...sender.customer, lastActivityAt: now.toISOString() };
  assertNotBlocked(customer);
  const conversationId = await conversationFor(tenant, sender, input);
  const message = {
    type: 'incoming' as const,
    content: input.content,
    attachments: input.attachments,
    author: { type: 'customer' as const, id: customer._id },
    externalId: input.externalId,
  };
  const guard = (m: MessageRef) =>
    input.externalId ? [incomingGuard(tenant, input.channel, input.externalId, m, () => new Duplicate())] : [];
  const created = (opened: Conversation) => [
    ...customerCreation(tenant, customer, { conversationId: opened._id, channel: opened.channel }),
    contactEvent('customer.contact.created', tenant, customer, now),
  ];
  try {
    const posted = conversationId
      ? await postMessage(unit, tenant, conversationId, message, now, (m) => [customerActivity(tenant, customer._id, now), ...guard(m)])
      : await openWithMessage(
          unit,
          tenant,
          { customerId: customer._id, channel: input.channel, channelId: input.channelId },
          message,
          now,
          guard,
          sender.stored ? undefined : created,
        );
    return { ...posted, customer: { ...customer, lastActivityAt: now.toISOString() }, duplicate: false };
  } catch (error) {
    if (error instanceof Refused && !sender.stored && !retried) return receiveIncoming(unit, tenant, input, now, true);
    if (!(error instanceof Duplicate)) throw error;
    return { ...(await alreadyRecorded(tenant, input))!, duplicate: true };
  }
};

/** A customer's message through the API, with the files it names resolved as for a reply. */
export const receiveMessage = async (
  unit: Unit,
  tenant: Tenant,
  input: Omit<Incoming, 'attachments'> & { attachments?: { fileId: string }[] },
  now: Date,
) =>
  receiveIncoming(
    unit,
    tenant,
    { ...input, attachments: await resolveAttachments(tenant, input.attachments, input.conversationId, now) },
    now,
  );
