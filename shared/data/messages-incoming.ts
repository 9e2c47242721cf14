import type { Tenant } from '../domain/auth/tenant';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import { Refused } from '../domain/refusal';
import { normalizeEmail, type Customer } from '../domain/contacts/customer';
import { assertNotBlocked } from '../domain/contacts/lifecycle';
import type { Channel } from '../domain/inbox/conversation';
import type { Attachment } from '../domain/inbox/message';
import { createConversation, getConversation, requireConversation } from './conversations';
import { createCustomer, customerIdBy, getCustomer, mutateCustomer, requireCustomer } from './customers';
import { customerKey } from './entity-keys';
import { tenantPk } from './keys';
import { getMessage, postMessage, type Posted } from './messages';
import { createItem, updateItem } from './transact';
import { K } from './registry/registry';

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

const dedupeKey = (tenant: Tenant, channel: string, externalId: string) => ({
  pk: tenantPk(tenant, K.INCOMING, channel, externalId),
  sk: K.GUARD,
});

const alreadyRecorded = async (tenant: Tenant, input: Incoming): Promise<(Posted & { customer: Customer }) | undefined> => {
  if (!input.externalId) return undefined;
  const { Item } = await dynamo().send(
    new GetCommand({ TableName: config().TABLE_NAME, Key: dedupeKey(tenant, input.channel, input.externalId), ConsistentRead: true }),
  );
  if (!Item) return undefined;
  const { conversation } = await requireConversation(tenant, Item.conversationId as string);
  const message = await getMessage(tenant, {
    _id: Item.messageId as string,
    conversationId: conversation._id,
    createdAt: Item.messageCreatedAt as string,
  });
  const { customer } = await requireCustomer(tenant, conversation.customerId);
  return message && { message, conversation, customer };
};

/**
 * The sender by channel identity, else by email or phone (then the identity is added to that customer),
 * else a new customer. A concurrent first message from the same sender makes one of the creates lose
 * on the identity guard; it then finds the winner.
 */
const resolveCustomer = async (tenant: Tenant, input: Incoming, now: Date, retried = false): Promise<Customer> => {
  const identity = { channel: input.channel, identifier: input.customer.identifier };
  const { email, phone, name } = input.customer;
  const byIdentity = await customerIdBy(tenant, 'IDENTITY', `${identity.channel}#${identity.identifier}`);
  if (byIdentity) return (await requireCustomer(tenant, byIdentity)).customer;
  const known =
    (email ? await customerIdBy(tenant, 'EMAIL', normalizeEmail(email)) : undefined) ??
    (phone ? await customerIdBy(tenant, 'PHONE', phone) : undefined);
  try {
    if (known) {
      return await mutateCustomer(
        tenant,
        known,
        (c) => ({
          customer: { ...c, identities: [...c.identities, identity], updatedAt: now.toISOString() },
          event: 'customer.contact.updated',
        }),
        now,
      );
    }
    return await createCustomer(tenant, { name, email, phone, identities: [identity] }, now);
  } catch (error) {
    if (error instanceof Refused && !retried) return resolveCustomer(tenant, input, now, true);
    throw error;
  }
};

/** The conversation named in the request, else the sender's latest on this channel, else a new one. */
const conversationFor = async (tenant: Tenant, customer: Customer, input: Incoming, now: Date): Promise<string> => {
  if (input.conversationId) {
    const stored = await getConversation(tenant, input.conversationId);
    if (!stored || stored.conversation.customerId !== customer._id) {
      throw new Refused('conversation_of_another_sender', 'No such conversation for this sender');
    }
    return stored.conversation._id;
  }
  const latest = (await getCustomer(tenant, customer._id))?.lastConversations[input.channel];
  const stored = latest ? await getConversation(tenant, latest) : undefined;
  if (stored && stored.conversation.customerId === customer._id) return stored.conversation._id;
  return (await createConversation(tenant, { customerId: customer._id, channel: input.channel, channelId: input.channelId }, now))._id;
};

/**
 * The entry point channels use for a customer's message: finds or creates the customer and the
 * conversation, records the message (reopening a closed or snoozed conversation) and stamps the
 * customer's last activity. Messages from a blocked customer are refused.
 */
export const receiveIncoming = async (
  tenant: Tenant,
  input: Incoming,
  now: Date,
): Promise<Posted & { customer: Customer; duplicate: boolean }> => {
  const seen = await alreadyRecorded(tenant, input);
  if (seen) return { ...seen, duplicate: true };
  const customer = await resolveCustomer(tenant, input, now);
  assertNotBlocked(customer);
  const conversationId = await conversationFor(tenant, customer, input, now);
  try {
    const posted = await postMessage(
      tenant,
      conversationId,
      {
        type: 'incoming',
        content: input.content,
        attachments: input.attachments,
        author: { type: 'customer', id: customer._id },
        externalId: input.externalId,
      },
      now,
      (message) => [
        updateItem(customerKey(tenant, customer._id), 'SET lastActivityAt = :t', {
          values: { ':t': now.toISOString() },
          condition: 'attribute_exists(pk)',
        }),
        ...(input.externalId
          ? [
              createItem(
                {
                  ...dedupeKey(tenant, input.channel, input.externalId),
                  type: 'INCOMING_GUARD',
                  conversationId,
                  messageId: message._id,
                  messageCreatedAt: message.createdAt,
                },
                () => new Duplicate(),
              ),
            ]
          : []),
      ],
    );
    return { ...posted, customer: { ...customer, lastActivityAt: now.toISOString() }, duplicate: false };
  } catch (error) {
    if (!(error instanceof Duplicate)) throw error;
    return { ...(await alreadyRecorded(tenant, input))!, duplicate: true };
  }
};
