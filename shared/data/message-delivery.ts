import type { Tenant } from '../domain/auth/tenant';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import type { Message, MessageRef } from '../domain/inbox/message';
import { messageKey, storedMessage } from './messages';
import { updateItem, type Write } from './transact';
import type { Unit } from './unit';

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
  const { message, send } = storedMessage(Item);
  return { message, ...send };
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
    return storedMessage(Attributes ?? {}).send.attempts;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return undefined;
    throw error;
  }
};

/** Gives a held send back, to be retried no earlier than `notBefore`. */
export const postponeSend = async (unit: Unit, tenant: Tenant, ref: MessageRef, leaseUntil: number, notBefore: number): Promise<void> => {
  await unit
    .commit([
      updateItem(messageKey(tenant, ref), 'SET sendNotBefore = :nb REMOVE sendLeaseUntil', {
        condition: 'sendLeaseUntil = :lease',
        values: { ':nb': notBefore, ':lease': leaseUntil },
      }),
    ])
    .catch(() => undefined);
};

/**
 * The write that moves an outgoing message's delivery status from `before`'s to `after`'s, conditional on the
 * status read (and on the lease the caller holds, if any): it fails with `onFail` when either changed.
 */
export const deliveryStatusWrite = (
  tenant: Tenant,
  ref: MessageRef,
  before: Message,
  after: Message,
  opts: { providerMessageId?: string; lease?: number; onFail: () => Error },
): Write => {
  const sets = ['deliveryStatus = :next', 'failureReason = :reason', ...(opts.providerMessageId ? ['providerMessageId = :pid'] : [])];
  const condition = `deliveryStatus = :current${opts.lease !== undefined ? ' AND sendLeaseUntil = :lease' : ''}`;
  return updateItem(messageKey(tenant, ref), `SET ${sets.join(', ')} REMOVE sendLeaseUntil, sendNotBefore`, {
    condition,
    values: {
      ':next': after.deliveryStatus,
      ':reason': after.failureReason,
      ':current': before.deliveryStatus,
      ...(opts.providerMessageId ? { ':pid': opts.providerMessageId } : {}),
      ...(opts.lease !== undefined ? { ':lease': opts.lease } : {}),
    },
    onFail: opts.onFail,
  });
};
