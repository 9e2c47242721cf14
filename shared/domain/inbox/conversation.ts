import * as z from 'zod';
import { built } from '../built';

export const STATUSES = ['open', 'pending', 'snoozed', 'closed'] as const;
const PRIORITIES = ['none', 'low', 'medium', 'high', 'urgent'] as const;
const CHANNELS = ['api', 'email', 'web', 'sms', 'whatsapp', 'messenger', 'instagram', 'telegram'] as const;

export const Status = /* @__PURE__ */ built(() => z.enum(STATUSES));
export const Priority = /* @__PURE__ */ built(() => z.enum(PRIORITIES));
export const Channel = /* @__PURE__ */ built(() => z.enum(CHANNELS));

export type Status = z.infer<typeof Status>;
export type Priority = z.infer<typeof Priority>;
export type Channel = z.infer<typeof Channel>;

export interface Conversation {
  _id: string;
  /** Per-workspace display number, 1, 2, 3… */
  number: number;
  customerId: string;
  channel: Channel;
  /** The connected channel account replies go out through; null: replies are only recorded. */
  channelId: string | null;
  status: Status;
  snoozedUntil: string | null;
  assigneeId: string | null;
  priority: Priority;
  subject: string | null;
  lastMessageAt: string | null;
  unreadCount: number;
  messageCount: number;
  tagIds: string[];
  createdAt: string;
  updatedAt: string;
}

/** The fields a conversation event names as `changes`, and the event that goes with them. */
export type ConversationEvent =
  | 'created'
  | 'updated'
  | 'assigned'
  | 'unassigned'
  | 'status_changed'
  | 'snoozed'
  | 'closed'
  | 'reopened'
  | 'priority_changed'
  | 'deleted';

/** A conversation after a change, and the events that describe it (each with the fields its `changes` names). */
export interface Change {
  conversation: Conversation;
  events: { name: ConversationEvent; fields: (keyof Conversation)[] }[];
}

export interface NewConversation {
  customerId: string;
  channel: Channel;
  channelId?: string | null;
  subject?: string | null;
  priority?: Priority;
  assigneeId?: string | null;
  status?: 'open' | 'pending';
}

export const newConversation = (input: NewConversation, ids: { _id: string; number: number }, now: Date): Conversation => ({
  _id: ids._id,
  number: ids.number,
  customerId: input.customerId,
  channel: input.channel,
  channelId: input.channelId ?? null,
  status: input.status ?? 'open',
  snoozedUntil: null,
  assigneeId: input.assigneeId ?? null,
  priority: input.priority ?? 'none',
  subject: input.subject ?? null,
  lastMessageAt: null,
  unreadCount: 0,
  messageCount: 0,
  tagIds: [],
  createdAt: now.toISOString(),
  updatedAt: now.toISOString(),
});
