import { SendMessageBatchCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import { z } from 'zod';
import { sqs } from '../aws/sqs';
import { config } from '../config';
import type { Queue } from '../queues';
import { tenantField } from '../domain/auth/tenant';

/** The body of a delivery message: a reference only; the truth (payload, status, schedule) is in the table. */
const deliveryMessage = z.object({
  /** The delivery's tenant. */
  workspaceId: tenantField,
  subscriptionId: z.string(),
  deliveryId: z.string(),
  /**
   * The carrier the delivery was created leased to: the message that starts a delivery holds its first
   * lease from the start, so its worker attempts without claiming it (a message without one claims it).
   */
  carrier: z.string().optional(),
  /** The delivery's event, so the worker reads its body beside the delivery; the delivery's own eventId decides. */
  eventId: z.string().optional(),
});
export type DeliveryMessage = z.infer<typeof deliveryMessage>;

export const webhookQueue: Queue<DeliveryMessage> = { env: 'WEBHOOK_QUEUE_URL', name: 'webhook delivery', message: deliveryMessage };

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
    if (Failed.length > 0)
      throw new Error(`failed to enqueue ${Failed.length} webhook deliveries: ${Failed[0]!.Message ?? Failed[0]!.Code}`);
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
