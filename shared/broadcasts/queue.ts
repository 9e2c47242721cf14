import { sendMessages } from '../queues';
import type { Tenant } from '../domain/auth/tenant';

/** `start`: begin (or resume) a broadcast's fan-out; `recipient`: send it to one customer. The truth is in the table. */
export type BroadcastMessage =
  | { kind: 'start'; workspaceId: Tenant; broadcastId: string }
  | { kind: 'recipient'; workspaceId: Tenant; broadcastId: string; customerId: string };

export const enqueueBroadcast = (messages: readonly BroadcastMessage[], delayMs = 0): Promise<void> => sendMessages('BROADCAST_QUEUE_URL', messages, delayMs);
