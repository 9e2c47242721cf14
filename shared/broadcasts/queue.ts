import { z } from 'zod';
import { sendMessages, tenantField, type Queue } from '../queues';

/**
 * `recipient`: send the broadcast to one customer, through its channel (which a sending broadcast keeps;
 * absent from messages enqueued before it was carried, then read from the broadcast).
 */
const recipientMessage = z.object({
  kind: z.literal('recipient'),
  workspaceId: tenantField,
  broadcastId: z.string(),
  channelId: z.string().optional(),
  customerId: z.string(),
});
export type RecipientMessage = z.infer<typeof recipientMessage>;

/** `start`: begin (or resume) a broadcast's fan-out; `recipient`: send it to one customer. The truth is in the table. */
const broadcastMessage = z.discriminatedUnion('kind', [z.object({ kind: z.literal('start'), workspaceId: tenantField, broadcastId: z.string() }), recipientMessage]);
export type BroadcastMessage = z.infer<typeof broadcastMessage>;

export const broadcastQueue: Queue<BroadcastMessage> = { env: 'BROADCAST_QUEUE_URL', name: 'broadcast', message: broadcastMessage };

export const enqueueBroadcast = (messages: readonly BroadcastMessage[], delayMs = 0): Promise<void> => sendMessages(broadcastQueue, messages, delayMs);
