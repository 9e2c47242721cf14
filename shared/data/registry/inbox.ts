import * as z from 'zod';
import { storedAttachment } from '../../domain/inbox/message';
import { conversation as conversationView, message as messageView } from '../../views/inbox';
import { built } from '../../domain/built';
import { declare } from './define';

export const conversation = /* @__PURE__ */ declare({
  name: 'Conversation',
  itemTypes: ['CONVERSATION'],
  personal: ['subject'],
  about:
    "A conversation (versioned); snoozed ones are in the timer's sparse index of wake-ups, closed ones in their tenant's index by closing time (the retention sweep's). " +
    "Its status list (`<list>` = `status:<status>`, gsi3) and its assignee's list with its status (`assignee:<assignee or none>:status:<status>`, gsi4) are its own entries " +
    'in two keys-only indexes (a conversation stored before them keeps its membership items until its status or assignee changes). `channelEntry` when its ' +
    "channel list is its customer membership item's entry. See [the messaging write path](#the-messaging-write-path).",
  prefixes: ['CONV', 'CONVERSATION', 'SNOOZED', 'CLOSED'],
  keys: {
    pk: 'WS#<tenant>#CONV#<id>',
    sk: 'CONVERSATION',
    gsi1pk: 'SNOOZED',
    gsi1sk: '<snoozedUntil>#<tenant>#<id>',
    gsi2pk: 'WS#<tenant>#CLOSED',
    gsi2sk: '<closedAt>#<id>',
    gsi3pk: 'WS#<tenant>#CONVLIST#<list>',
    gsi3sk: '<createdAt>#<id>',
    gsi4pk: 'WS#<tenant>#CONVLIST#<list>',
    gsi4sk: '<createdAt>#<id>',
  },
  /** Tag ids are a String Set on the item (read into the array by the repository). */
  schema: () => conversationView.extend({ version: z.number(), channelEntry: z.boolean().optional() }),
  patterns: [
    { read: 'conversation by id', by: 'pk=<tenant>#CONV#<id> sk=CONVERSATION' },
    { read: 'snoozed conversations due', by: 'gsi1pk=SNOOZED gsi1sk ≤ now', index: 'gsi1' },
    { read: 'closed conversations past the retention', by: 'gsi2pk=<tenant>#CLOSED gsi2sk < cutoff', index: 'gsi2' },
    {
      read: 'a status list, newest first (merged with its membership items)',
      by: 'gsi3pk=<tenant>#CONVLIST#status:<status>',
      index: 'gsi3',
    },
    {
      read: "an assignee's list with a status, newest first (merged with its membership items)",
      by: 'gsi4pk=<tenant>#CONVLIST#assignee:<assignee or none>:status:<status>',
      index: 'gsi4',
    },
    { read: "a conversation's partition (its messages, email thread), to delete it", by: 'pk=<tenant>#CONV#<id>' },
  ],
});

export const conversationPurge = /* @__PURE__ */ declare({
  name: 'Conversation purge',
  itemTypes: ['CONV_PURGE'],
  personal: [],
  about:
    'Left in place of a conversation the retention sweep deleted, in its closed index, until its messages and files are gone too: a crashed sweep finds it and finishes.',
  prefixes: ['PURGING'],
  keys: { pk: 'WS#<tenant>#CONV#<id>', sk: 'PURGING', gsi2pk: 'WS#<tenant>#CLOSED', gsi2sk: '<closedAt>#<id>' },
  patterns: [{ read: 'unfinished purges, with the closed conversations', by: 'gsi2pk=<tenant>#CLOSED', index: 'gsi2' }],
  schema: () => z.object({ conversationId: z.string() }),
});

export const closedIndexBackfill = /* @__PURE__ */ declare({
  name: 'Closed index backfill',
  itemTypes: ['CLOSED_BACKFILL'],
  personal: [],
  about:
    "How far the retention sweep has indexed a tenant's conversations closed before the closed index existed: the cursor in " +
    'its closed status list, and `done` once it reached the end (the writes that close a conversation index it since).',
  prefixes: ['CLOSED_BACKFILL'],
  keys: { pk: 'WS#<tenant>#CLOSED_BACKFILL', sk: 'CLOSED_BACKFILL' },
  patterns: [{ read: "a tenant's backfill", by: 'pk=<tenant>#CLOSED_BACKFILL sk=CLOSED_BACKFILL' }],
  schema: () => z.object({ done: z.boolean().default(false), cursor: z.string().optional() }),
});

export const conversationList = /* @__PURE__ */ declare({
  name: 'Conversation list membership',
  itemTypes: ['CONV_LIST'],
  personal: [],
  about:
    "A conversation in its customer's list (`<list>` = `customer:<customer id>`), whose item is also its entry in its channel's list (gsi3, keys only, " +
    "`<channelList>` = `channel:<channel>`). Stored before: a membership item of the channel's list of its own, and membership items of its status list and " +
    "its assignee's with its status (no gsi3). `all` and an assignee's list are read as the merge of their status lists. Totals: see [the messaging write path](#the-messaging-write-path).",
  prefixes: ['CONVLIST'],
  keys: {
    pk: 'WS#<tenant>#CONVLIST#<list>',
    sk: '<createdAt>#<id>',
    gsi3pk: 'WS#<tenant>#CONVLIST#<channelList>',
    gsi3sk: '<createdAt>#<id>',
  },
  schema: () => z.object({ conversationId: z.string() }),
  patterns: [
    { read: 'a list, newest first', by: 'pk=<tenant>#CONVLIST#<list>' },
    {
      read: "a channel's list, newest first (merged with its membership items)",
      by: 'gsi3pk=<tenant>#CONVLIST#channel:<channel>',
      index: 'gsi3',
    },
  ],
});

/** A stored attachment, read as answered: one stored before files existed is marked `legacy` (`storedAttachment`). */
const attachmentOfItem = /* @__PURE__ */ built(() =>
  z.record(z.string(), z.unknown()).transform(storedAttachment).pipe(messageView.shape.attachments.element),
);

export const message = /* @__PURE__ */ declare({
  name: 'Message',
  itemTypes: ['MESSAGE'],
  personal: ['content', 'contentZ', 'author', 'attachments', 'externalId'],
  about:
    "A message, in its conversation's partition, oldest first. Its own type is stored as `messageType`; long content packed as `contentZ` (see `packText`). " +
    "An outgoing one carries its send state: `sendLeaseUntil` (a worker holds the send until then), `sendAttempts`, `sendNotBefore` (a retry's earliest time) and `providerMessageId`.",
  prefixes: ['MSG'],
  keys: { pk: 'WS#<tenant>#CONV#<conversationId>', sk: 'MSG#<createdAt>#<id>' },
  /** `content` is read unpacked by the repository (from `contentZ` when packed). */
  schema: () =>
    messageView.omit({ type: true }).extend({
      messageType: messageView.shape.type,
      attachments: z.array(attachmentOfItem),
      contentZ: z.string().optional(),
      sendAttempts: z.number().optional(),
      sendLeaseUntil: z.number().optional(),
      sendNotBefore: z.number().optional(),
      providerMessageId: z.string().optional(),
    }),
  patterns: [{ read: 'messages of a conversation, oldest or newest first', by: 'pk=<tenant>#CONV#<conversationId> sk begins_with MSG#' }],
});

export const emailThread = /* @__PURE__ */ declare({
  name: 'Email thread',
  itemTypes: ['EMAIL_THREAD'],
  personal: ['ids'],
  about: "The Message-IDs of a conversation's latest emails, oldest first, in its partition: a reply's References.",
  prefixes: ['EMAIL_THREAD'],
  keys: { pk: 'WS#<tenant>#CONV#<conversationId>', sk: 'EMAIL_THREAD' },
  patterns: [{ read: 'email thread of a conversation', by: 'pk=<tenant>#CONV#<conversationId> sk=EMAIL_THREAD' }],
  schema: () => z.object({ ids: z.array(z.string()).default([]) }),
});

export const incomingGuard = /* @__PURE__ */ declare({
  name: 'Incoming message guard',
  itemTypes: ['INCOMING_GUARD'],
  personal: [],
  about: "Records a channel's message id once, so a repeated delivery is not recorded twice.",
  prefixes: ['INCOMING', 'GUARD'],
  keys: { pk: 'WS#<tenant>#INCOMING#<channel>#<externalId>', sk: 'GUARD' },
  patterns: [{ read: 'message already recorded', by: 'pk=<tenant>#INCOMING#<channel>#<externalId> sk=GUARD' }],
  schema: () => z.object({ messageId: z.string(), conversationId: z.string(), messageCreatedAt: z.string() }),
});

export const emailMessage = /* @__PURE__ */ declare({
  name: 'Email message id',
  itemTypes: ['EMAIL_MESSAGE_ID'],
  personal: [],
  about: 'Maps an email `Message-ID` to its conversation, to thread replies.',
  prefixes: ['EMAILMSG'],
  keys: { pk: 'WS#<tenant>#EMAILMSG#<messageId>', sk: 'EMAILMSG' },
  patterns: [{ read: 'conversation of a Message-ID', by: 'pk=<tenant>#EMAILMSG#<messageId> sk=EMAILMSG' }],
  schema: () => z.object({ conversationId: z.string() }),
});
