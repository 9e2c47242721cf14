import type { Tenant } from '../domain/auth/tenant';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import { buildEnvelope } from '../events/envelope';
import { advances, receiptEvent, type Receipt } from '../domain/channels/delivery';
import type { Conversation } from '../domain/inbox/conversation';
import type { Message } from '../domain/inbox/message';
import { getConversation } from './conversations';
import { fromItem, messageKey, type MessageRef } from './messages';
import { outboxItem } from './outbox';
import { transact, updateItem, type Write } from './transact';

/**
 * An outgoing message's send state lives on the message item: `sendLeaseUntil` (a worker holds the send
 * until then), `sendAttempts`, `sendNotBefore` (a retry's earliest time) and `providerMessageId`.
 */
export interface SendState {
  message: Message;
  attempts: number;
  leaseUntil?: number;
  notBefore?: number;
  providerMessageId?: string;
}

const table = () => config().TABLE_NAME;

export const readSendState = async (tenant: Tenant, ref: MessageRef): Promise<SendState | undefined> => {
  const { Item } = await dynamo().send(new GetCommand({ TableName: table(), Key: messageKey(tenant, ref), ConsistentRead: true }));
  if (!Item) return undefined;
  return {
    message: fromItem(Item),
    attempts: (Item.sendAttempts as number | undefined) ?? 0,
    leaseUntil: Item.sendLeaseUntil as number | undefined,
    notBefore: Item.sendNotBefore as number | undefined,
    providerMessageId: Item.providerMessageId as string | undefined,
  };
};

/** Takes the send of a pending message until `leaseUntil` and counts the attempt; undefined when someone else holds it. */
export const claimSend = async (tenant: Tenant, ref: MessageRef, now: number, leaseUntil: number): Promise<number | undefined> => {
  try {
    const { Attributes } = await dynamo().send(
      new UpdateCommand({
        TableName: table(),
        Key: messageKey(tenant, ref),
        UpdateExpression: 'SET sendLeaseUntil = :until ADD sendAttempts :one',
        ConditionExpression: 'deliveryStatus = :pending AND (attribute_not_exists(sendLeaseUntil) OR sendLeaseUntil < :now)',
        ExpressionAttributeValues: { ':until': leaseUntil, ':one': 1, ':pending': 'pending', ':now': now },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return Attributes!.sendAttempts as number;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return undefined;
    throw error;
  }
};

/** Gives a held send back, to be retried no earlier than `notBefore`. */
export const postponeSend = async (tenant: Tenant, ref: MessageRef, leaseUntil: number, notBefore: number): Promise<void> => {
  await transact([
    updateItem(messageKey(tenant, ref), 'SET sendNotBefore = :nb REMOVE sendLeaseUntil', {
      condition: 'sendLeaseUntil = :lease',
      values: { ':nb': notBefore, ':lease': leaseUntil },
    }),
  ]).catch(() => undefined);
};

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

/**
 * Moves an outgoing message's delivery status forward, with its events, conditional on the status read
 * (and on the caller's lease): a receipt that arrives twice, late or out of order changes nothing.
 * Returns the message after the change, or undefined when it did not apply.
 */
export const changeDeliveryStatus = async (
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
  const sets = ['deliveryStatus = :next', 'failureReason = :reason', ...(change.providerMessageId ? ['providerMessageId = :pid'] : [])];
  const condition = `deliveryStatus = :current${change.lease !== undefined ? ' AND sendLeaseUntil = :lease' : ''}`;
  try {
    await transact([
      updateItem(messageKey(tenant, ref), `SET ${sets.join(', ')} REMOVE sendLeaseUntil, sendNotBefore`, {
        condition,
        values: {
          ':next': after.deliveryStatus,
          ':reason': after.failureReason,
          ':current': before.deliveryStatus,
          ...(change.providerMessageId ? { ':pid': change.providerMessageId } : {}),
          ...(change.lease !== undefined ? { ':lease': change.lease } : {}),
        },
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

class StaleChange extends Error {}
