import * as z from 'zod';
import { Channel, Priority, Status, type Conversation } from '../domain/inbox/conversation';
import { MESSAGE_TYPES, type Message } from '../domain/inbox/message';
import { attachment, legacyAttachment } from './files';
import { exactly, id, time } from './common';
import { built } from '../domain/built';
import { contact } from './contacts';

export const conversation = /* @__PURE__ */ built(() =>
  exactly<Conversation>()(
    z.strictObject({
      _id: id,
      number: z.number().int().min(1),
      customerId: id,
      channel: Channel,
      channelId: id.nullable(),
      status: Status,
      snoozedUntil: time.nullable(),
      assigneeId: z.string().nullable(),
      priority: Priority,
      subject: z.string().nullable(),
      lastMessageAt: time.nullable(),
      unreadCount: z.number().int().min(0),
      messageCount: z.number().int().min(0),
      tagIds: z.array(id),
      createdAt: time,
      updatedAt: time,
    }),
  ).meta({ id: 'Conversation' }),
);

export const message = /* @__PURE__ */ built(() =>
  exactly<Message>()(
    z.strictObject({
      _id: id,
      conversationId: id,
      type: z.enum(MESSAGE_TYPES),
      private: z.boolean(),
      content: z.string().nullable(),
      attachments: z.array(z.union([attachment, legacyAttachment])),
      deliveryStatus: z.enum(['received', 'pending', 'sent', 'delivered', 'read', 'failed']).nullable(),
      failureReason: z.string().nullable(),
      author: z.strictObject({ type: z.enum(['customer', 'token', 'system', 'ai']), id: z.string().nullable() }),
      externalId: z.string().nullable(),
      createdAt: time,
    }),
  ).meta({ id: 'Message' }),
);

/** A message just added, with its conversation as the message left it. */
export const postedMessage = /* @__PURE__ */ built(() => z.strictObject({ message, conversation }).meta({ id: 'PostedMessage' }));

/** A customer's message as received: with its sender, and `duplicate: true` when its `externalId` was seen before. */
export const receivedMessage = /* @__PURE__ */ built(() =>
  postedMessage.extend({ customer: contact, duplicate: z.boolean() }).meta({ id: 'ReceivedMessage' }),
);
