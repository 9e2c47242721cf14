import * as z from 'zod';
import { OBJECT_ID } from '../../ids';
import { MAX_ATTACHMENTS, type Attachment } from '../files/file';
import type { Change, Conversation } from './conversation';
import { built } from '../built';

export type { Attachment };

/** What names a message in the table: its conversation, its time and its id. */
export interface MessageRef {
  _id: string;
  conversationId: string;
  createdAt: string;
}

/**
 * An attachment of a message stored before files existed: metadata a client made up, the bytes wherever `url`
 * points (never stored or checked by Parley). Such messages are answered with these as stored, marked
 * `legacy: true`; no new message can carry one.
 */
export interface LegacyAttachment {
  url: string;
  name: string;
  contentType: string;
  size: number;
  legacy: true;
}

/** What a message carries: files, or (on a message stored before files existed) legacy links. */
export type MessageAttachment = Attachment | LegacyAttachment;

export const isLegacy = (a: MessageAttachment): a is LegacyAttachment => 'legacy' in a;

/** A stored attachment as the message item holds it: a legacy one was stored without its mark. */
export const storedAttachment = (stored: Record<string, unknown>): Record<string, unknown> =>
  'fileId' in stored ? stored : { ...stored, legacy: true };

export const MESSAGE_TYPES = ['incoming', 'outgoing', 'note', 'activity'] as const;
type MessageType = (typeof MESSAGE_TYPES)[number];

/** Delivery status: incoming messages are `received`; outgoing ones start `pending` until a channel reports. */
export type DeliveryStatus = 'received' | 'pending' | 'sent' | 'delivered' | 'read' | 'failed';

const MAX_CONTENT_LENGTH = 10_000;

/** A file a message carries, as a client names it: a ready file of the same workspace and mode (`POST /files`). */
const AttachmentRef = /* @__PURE__ */ built(() => z.strictObject({ fileId: z.string().regex(OBJECT_ID, 'Must be a 24-character hex id') }));

/** Content and attachments as a client sends them; at least one of the two is required (the content may be empty with attachments). */
export const messageContent = () => ({
  content: z.string().trim().max(MAX_CONTENT_LENGTH).optional(),
  attachments: z
    .array(AttachmentRef)
    .max(MAX_ATTACHMENTS)
    .refine((refs) => new Set(refs.map((r) => r.fileId)).size === refs.length, 'Must not name a file twice')
    .optional(),
});

/** Who sent an incoming message, as a channel names them: its own identifier, and what else it knows. */
export const IncomingSender = /* @__PURE__ */ built(() =>
  z.strictObject({
    identifier: z.string().trim().min(1).max(320),
    name: z.string().trim().min(1).max(200).optional(),
    email: z.email().max(320).optional(),
    phone: z
      .string()
      .regex(/^\+[1-9]\d{6,14}$/, 'Must be an E.164 number like +14155550123')
      .optional(),
  }),
);

export const hasBody = (m: { content?: string; attachments?: unknown[] }) => Boolean(m.content) || (m.attachments?.length ?? 0) > 0;

interface Author {
  /** `ai`: written by the AI auto-reply (id null). */
  type: 'customer' | 'token' | 'system' | 'ai';
  id: string | null;
}

export interface Message {
  _id: string;
  conversationId: string;
  type: MessageType;
  private: boolean;
  content: string | null;
  attachments: MessageAttachment[];
  deliveryStatus: DeliveryStatus | null;
  /** Why a `failed` outgoing message failed (e.g. `http_503`, `invalid_recipient`, `channel_disconnected`). */
  failureReason: string | null;
  author: Author;
  externalId: string | null;
  createdAt: string;
}

export interface NewMessage {
  type: Exclude<MessageType, 'activity'>;
  content?: string;
  attachments?: Attachment[];
  author: Author;
  externalId?: string;
}

export const newMessage = (input: NewMessage, ids: { _id: string; conversationId: string }, now: Date): Message => ({
  _id: ids._id,
  conversationId: ids.conversationId,
  type: input.type,
  private: input.type === 'note',
  content: input.content || null,
  attachments: input.attachments ?? [],
  deliveryStatus: input.type === 'incoming' ? 'received' : input.type === 'outgoing' ? 'pending' : null,
  failureReason: null,
  author: input.author,
  externalId: input.externalId ?? null,
  createdAt: now.toISOString(),
});

/**
 * What a new message does to its conversation: every message counts; customer messages raise the unread
 * count and reopen a closed or snoozed conversation; an agent reply marks the conversation read.
 */
export const applyMessage = (conversation: Conversation, message: Message): Change => {
  const at = message.createdAt;
  const base = { ...conversation, messageCount: conversation.messageCount + 1, updatedAt: at };
  if (message.type === 'incoming') {
    const reopen = conversation.status === 'closed' || conversation.status === 'snoozed';
    return {
      conversation: {
        ...base,
        lastMessageAt: at,
        unreadCount: conversation.unreadCount + 1,
        ...(reopen ? { status: 'open' as const, snoozedUntil: null } : {}),
      },
      events: reopen ? [{ name: 'reopened', fields: ['status', 'snoozedUntil'] }] : [],
    };
  }
  if (message.type === 'outgoing') return { conversation: { ...base, lastMessageAt: at, unreadCount: 0 }, events: [] };
  return { conversation: base, events: [] };
};
