import * as z from 'zod';
import type { Unit } from '../data/unit';
import { messageTenant, queueMessage, sendMessages, type Queue } from '../queues';

/** The body of a channel-send message: which outgoing message to send (its `MessageRef`); the truth is in the table. */
const outgoingMessage = queueMessage(z.object({ ...messageTenant, _id: z.string(), conversationId: z.string(), createdAt: z.string() }));
export type OutgoingMessage = z.infer<typeof outgoingMessage>;

export const channelQueue: Queue<OutgoingMessage> = { env: 'CHANNEL_QUEUE_URL', name: 'channel send', message: outgoingMessage };

export const enqueueOutgoing = (unit: Unit, message: OutgoingMessage): Promise<void> => sendMessages(unit, channelQueue, [message]);
