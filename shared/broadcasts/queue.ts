import * as z from 'zod';
import type { Unit } from '../data/unit';
import { messageTenant, queueMessage, sendMessages, type Queue } from '../queues';
import { built } from '../domain/built';

/**
 * `recipient`: send the broadcast to some of its customers, through its channel (which a sending broadcast
 * keeps; absent from messages enqueued before it was carried, then read from the broadcast). A message
 * names up to `RECIPIENTS_PER_MESSAGE` customers in `customerIds`; one enqueued before recipients were
 * batched names its one customer in `customerId`.
 */
const recipient = { kind: z.literal('recipient'), ...messageTenant, broadcastId: z.string(), channelId: z.string().optional() };
const recipientMessage = /* @__PURE__ */ built(() =>
  z.union([z.object({ ...recipient, customerIds: z.array(z.string()).min(1) }), z.object({ ...recipient, customerId: z.string() })]),
);
export type RecipientMessage = z.infer<typeof recipientMessage>;

/** Customers per `recipient` message: a batch of 10 messages then reaches up to 100 recipients. */
export const RECIPIENTS_PER_MESSAGE = 10;

export const customersOf = (m: RecipientMessage): string[] => ('customerIds' in m ? m.customerIds : [m.customerId]);

/** `start`: begin (or resume) a broadcast's fan-out; `recipient`: send it to some customers. The truth is in the table. */
const broadcastMessage = queueMessage(
  z.union([z.object({ kind: z.literal('start'), ...messageTenant, broadcastId: z.string() }), recipientMessage]),
);
export type BroadcastMessage = z.infer<typeof broadcastMessage>;

export const broadcastQueue: Queue<BroadcastMessage> = { env: 'BROADCAST_QUEUE_URL', name: 'broadcast', message: broadcastMessage };

export const enqueueBroadcast = (unit: Unit, messages: readonly BroadcastMessage[], delayMs = 0): Promise<void> =>
  sendMessages(unit, broadcastQueue, messages, delayMs);
