import { sendMessages } from '../queues';
import type { Tenant } from '../domain/auth/tenant';

/**
 * `recipient`: send the broadcast to one customer, through its channel (which a sending broadcast keeps;
 * absent from messages enqueued before it was carried, then read from the broadcast).
 */
export interface RecipientMessage {
  kind: 'recipient';
  workspaceId: Tenant;
  broadcastId: string;
  channelId?: string;
  customerId: string;
}

/** `start`: begin (or resume) a broadcast's fan-out; `recipient`: send it to one customer. The truth is in the table. */
export type BroadcastMessage = { kind: 'start'; workspaceId: Tenant; broadcastId: string } | RecipientMessage;

export const enqueueBroadcast = (messages: readonly BroadcastMessage[], delayMs = 0): Promise<void> => sendMessages('BROADCAST_QUEUE_URL', messages, delayMs);
