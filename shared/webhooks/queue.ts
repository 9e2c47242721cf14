import { ChangeMessageVisibilityCommand, SendMessageBatchCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import { sqs } from '../aws/sqs';
import { config } from '../config';
import type { Tenant } from '../domain/auth/tenant';

/** The body of a delivery message: a reference only; the truth (payload, status, schedule) is in the table. */
export interface DeliveryMessage {
  /** The delivery's tenant. */
  workspaceId: Tenant;
  subscriptionId: string;
  deliveryId: string;
  /**
   * The carrier the delivery was created leased to: the message that starts a delivery holds its first
   * lease from the start, so its worker attempts without claiming it (a message without one claims it).
   */
  carrier?: string;
  /** The delivery's event, so the worker reads its body beside the delivery; the delivery's own eventId decides. */
  eventId?: string;
}

/** SQS caps a visibility timeout at 12 h from receipt; a longer wait wakes early and defers again. */
export const MAX_VISIBILITY_SECONDS = 11 * 3600;

const queueUrl = (which: 'WEBHOOK_QUEUE_URL' | 'WEBHOOK_DLQ_URL'): string => {
  const url = config()[which];
  if (!url) throw new Error(`${which} is not configured`);
  return url;
};

export const enqueueDeliveries = async (messages: readonly DeliveryMessage[]): Promise<void> => {
  for (let i = 0; i < messages.length; i += 10) {
    const chunk = messages.slice(i, i + 10);
    const { Failed = [] } = await sqs().send(
      new SendMessageBatchCommand({
        QueueUrl: queueUrl('WEBHOOK_QUEUE_URL'),
        Entries: chunk.map((m, j) => ({ Id: String(j), MessageBody: JSON.stringify(m) })),
      }),
    );
    if (Failed.length > 0) throw new Error(`failed to enqueue ${Failed.length} webhook deliveries: ${Failed[0]!.Message ?? Failed[0]!.Code}`);
  }
};

/** Parks a permanently failed delivery in the DLQ, where operators can see it; the table lists it as failed. */
export const parkInDlq = async (message: DeliveryMessage, failureReason: string): Promise<void> => {
  await sqs().send(
    new SendMessageCommand({
      QueueUrl: queueUrl('WEBHOOK_DLQ_URL'),
      MessageBody: JSON.stringify({ ...message, failureReason }),
    }),
  );
};

/** Makes a received message reappear after about `delayMs`: rounded down to whole seconds (the worker aligns the rest), capped. */
export const deferMessage = async (receiptHandle: string, delayMs: number): Promise<void> => {
  const seconds = Math.min(MAX_VISIBILITY_SECONDS, Math.max(0, Math.floor(delayMs / 1000)));
  await sqs().send(
    new ChangeMessageVisibilityCommand({ QueueUrl: queueUrl('WEBHOOK_QUEUE_URL'), ReceiptHandle: receiptHandle, VisibilityTimeout: seconds }),
  );
};
