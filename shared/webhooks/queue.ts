import type { Unit } from '../data/unit';
import * as z from 'zod';
import { sqs } from '../aws/sqs';
import { config } from '../config';
import { messageTenant, queueMessage, sendMessages, type Queue } from '../queues';

/** The body of a delivery message: a reference only; the truth (payload, status, schedule) is in the table. */
const deliveryMessage = queueMessage(
  z.object({
    ...messageTenant,
    subscriptionId: z.string(),
    deliveryId: z.string(),
    /**
     * The carrier the delivery was created leased to: the message that starts a delivery holds its first
     * lease from the start, so its worker attempts without claiming it (a message without one claims it).
     */
    carrier: z.string().optional(),
    /** The delivery's event, so the worker reads its body beside the delivery; the delivery's own eventId decides. */
    eventId: z.string().optional(),
  }),
);
export type DeliveryMessage = z.infer<typeof deliveryMessage>;

export const webhookQueue: Queue<DeliveryMessage> = { env: 'WEBHOOK_QUEUE_URL', name: 'webhook delivery', message: deliveryMessage };

const dlqUrl = (): string => {
  const url = config().WEBHOOK_DLQ_URL;
  if (!url) throw new Error('WEBHOOK_DLQ_URL is not configured');
  return url;
};

/** Sends delivery messages (after the request's commit when inside an idempotent one: `sendMessages`). */
export const enqueueDeliveries = (unit: Unit, messages: readonly DeliveryMessage[]): Promise<void> =>
  sendMessages(unit, webhookQueue, messages);

/** Parks a permanently failed delivery in the DLQ, where operators can see it; the table lists it as failed. */
export const parkInDlq = async (message: DeliveryMessage, failureReason: string): Promise<void> => {
  const { sdk, client } = await sqs();
  await client.send(
    new sdk.SendMessageCommand({
      QueueUrl: dlqUrl(),
      MessageBody: JSON.stringify({ ...message, failureReason }),
    }),
  );
};
