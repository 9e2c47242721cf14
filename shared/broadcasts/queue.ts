import { sendMessages } from '../queues';
import type { Tenant } from '../domain/auth/tenant';

/**
 * `recipient`: send the broadcast to some of its customers, through its channel (which a sending broadcast
 * keeps; absent from messages enqueued before it was carried, then read from the broadcast). A message
 * names up to `RECIPIENTS_PER_MESSAGE` customers in `customerIds`; one enqueued before recipients were
 * batched names its one customer in `customerId`.
 */
export type RecipientMessage = { kind: 'recipient'; workspaceId: Tenant; broadcastId: string; channelId?: string } & ({ customerIds: string[] } | { customerId: string });

/** Customers per `recipient` message: a batch of 10 messages then reaches up to 100 recipients. */
export const RECIPIENTS_PER_MESSAGE = 10;

export const customersOf = (m: RecipientMessage): string[] => ('customerIds' in m ? m.customerIds : [m.customerId]);

/** `start`: begin (or resume) a broadcast's fan-out; `recipient`: send it to some customers. The truth is in the table. */
export type BroadcastMessage = { kind: 'start'; workspaceId: Tenant; broadcastId: string } | RecipientMessage;

export const enqueueBroadcast = (messages: readonly BroadcastMessage[], delayMs = 0): Promise<void> => sendMessages('BROADCAST_QUEUE_URL', messages, delayMs);
