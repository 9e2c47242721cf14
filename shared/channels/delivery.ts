import type { Tenant } from '../domain/auth/tenant';
import { advances, receiptEvent, type Receipt } from '../domain/channels/delivery';
import type { Conversation } from '../domain/inbox/conversation';
import type { Message, MessageRef } from '../domain/inbox/message';
import { buildEnvelope } from '../events/envelope';
import { getConversation } from '../data/conversations';
import { deliveryStatusWrite, readSendState } from '../data/message-delivery';
import { outboxItem } from '../data/outbox';
import type { Write } from '../data/transact';
import type { Unit } from '../data/unit';

export interface DeliveryChange {
  status: Receipt;
  reason?: string;
  providerMessageId?: string;
  /** The lease the caller holds: the change commits only while it still holds it. */
  lease?: number;
  /** Written in the same transaction (the sandbox provider's log). */
  writes?: Write[];
}

const events = (tenant: Tenant, before: Message, after: Message, conversation: Conversation | undefined, now: Date): Write[] => {
  const data = { message: after, conversation: conversation ?? null };
  const changes = { deliveryStatus: [before.deliveryStatus, after.deliveryStatus] as [unknown, unknown] };
  return [
    outboxItem(buildEnvelope('channel.message.status_changed', tenant, data, { changes, now })),
    outboxItem(buildEnvelope(receiptEvent(after.deliveryStatus as Receipt), tenant, data, { changes, now })),
  ];
};

class StaleChange extends Error {}

/**
 * Moves an outgoing message's delivery status forward, with its events, conditional on the status read
 * (and on the caller's lease): a receipt that arrives twice, late or out of order changes nothing.
 * Returns the message after the change, or undefined when it did not apply.
 */
export const changeDeliveryStatus = async (
  unit: Unit,
  tenant: Tenant,
  ref: MessageRef,
  change: DeliveryChange,
  now: Date,
): Promise<Message | undefined> => {
  const state = await readSendState(tenant, ref);
  if (state?.message.type !== 'outgoing' || !advances(state.message.deliveryStatus, change.status)) return undefined;
  const before = state.message;
  const after: Message = {
    ...before,
    deliveryStatus: change.status,
    failureReason: change.status === 'failed' ? (change.reason ?? 'unknown') : null,
  };
  const conversation = (await getConversation(tenant, ref.conversationId))?.conversation;
  try {
    await unit.commit([
      deliveryStatusWrite(tenant, ref, before, after, {
        providerMessageId: change.providerMessageId,
        lease: change.lease,
        onFail: () => new StaleChange(),
      }),
      ...events(tenant, before, after, conversation, now),
      ...(change.writes ?? []),
    ]);
  } catch (error) {
    if (error instanceof StaleChange) return undefined;
    throw error;
  }
  return after;
};
