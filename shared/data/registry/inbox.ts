import * as z from 'zod';
import { declare, entity } from './define';

export const conversation = entity({
  name: 'Conversation',
  itemTypes: ['CONVERSATION'],
  personal: ['subject'],
  about:
    "A conversation; snoozed ones are in the timer's sparse index of wake-ups, closed ones in their tenant's index by closing time (the retention sweep's). " +
    "Its status list and its assignee's list with its status are its own entries in gsi3 and gsi4 (keys only; a conversation stored before them keeps " +
    'its membership items until its status or assignee changes). See [the messaging write path](#the-messaging-write-path).',
  prefixes: ['CONV', 'CONVERSATION', 'SNOOZED', 'CLOSED'],
  keys: {
    pk: '<tenant>#CONV#<id>',
    sk: 'CONVERSATION',
    gsi1pk: 'SNOOZED',
    gsi1sk: '<snoozedUntil>#<tenant>#<id>',
    gsi2pk: '<tenant>#CLOSED',
    gsi2sk: '<closedAt>#<id>',
    gsi3pk: '<tenant>#CONVLIST#status:<status>',
    gsi3sk: '<createdAt>#<id>',
    gsi4pk: '<tenant>#CONVLIST#assignee:<assignee or none>:status:<status>',
    gsi4sk: '<createdAt>#<id>',
  },
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
  ],
});

export const conversationPurge = declare({
  name: 'Conversation purge',
  itemTypes: ['CONV_PURGE'],
  personal: [],
  about:
    'Left in place of a conversation the retention sweep deleted, in its closed index, until its messages and files are gone too: a crashed sweep finds it and finishes.',
  prefixes: ['PURGING'],
  keys: { pk: 'WS#<tenant>#CONV#<id>', sk: 'PURGING', gsi2pk: 'WS#<tenant>#CLOSED', gsi2sk: '<closedAt>#<id>' },
  patterns: [{ read: 'unfinished purges, with the closed conversations', by: 'gsi2pk=<tenant>#CLOSED', index: 'gsi2' }],
  schema: z.object({ conversationId: z.string() }),
});

export const closedIndexBackfill = declare({
  name: 'Closed index backfill',
  itemTypes: ['CLOSED_BACKFILL'],
  personal: [],
  about:
    "How far the retention sweep has indexed a tenant's conversations closed before the closed index existed: the cursor in " +
    'its closed status list, and `done` once it reached the end (the writes that close a conversation index it since).',
  prefixes: ['CLOSED_BACKFILL'],
  keys: { pk: 'WS#<tenant>#CLOSED_BACKFILL', sk: 'CLOSED_BACKFILL' },
  patterns: [{ read: "a tenant's backfill", by: 'pk=<tenant>#CLOSED_BACKFILL sk=CLOSED_BACKFILL' }],
  schema: z.object({ done: z.boolean().default(false), cursor: z.string().optional() }),
});

export const conversationList = entity({
  name: 'Conversation list membership',
  itemTypes: ['CONV_LIST'],
  personal: [],
  about:
    "A conversation in its customer's list, whose item is also its entry in its channel's list (gsi3, keys only; stored before, a membership item of the channel's list of its own, and membership items of its status list and its assignee's with its status); `all` and an assignee's list are read as the merge of their status lists. Totals: see [the messaging write path](#the-messaging-write-path).",
  prefixes: ['CONVLIST'],
  keys: {
    pk: '<tenant>#CONVLIST#<list>',
    sk: '<createdAt>#<id>',
    gsi3pk: '<tenant>#CONVLIST#channel:<channel> (customer memberships)',
    gsi3sk: '<createdAt>#<id>',
  },
  patterns: [
    { read: 'a list, newest first', by: 'pk=<tenant>#CONVLIST#<list>' },
    {
      read: "a channel's list, newest first (merged with its membership items)",
      by: 'gsi3pk=<tenant>#CONVLIST#channel:<channel>',
      index: 'gsi3',
    },
  ],
});

export const message = entity({
  name: 'Message',
  itemTypes: ['MESSAGE'],
  personal: ['content', 'contentZ', 'author', 'attachments', 'externalId'],
  about: "A message, in its conversation's partition.",
  prefixes: ['MSG'],
  keys: { pk: '<tenant>#CONV#<conversation id>', sk: 'MSG#<createdAt>#<id>' },
  patterns: [{ read: 'messages of a conversation, oldest or newest first', by: 'pk=<tenant>#CONV#<conversation id> sk begins_with MSG#' }],
});

export const emailThread = declare({
  name: 'Email thread',
  itemTypes: ['EMAIL_THREAD'],
  personal: ['ids'],
  about: "The Message-IDs of a conversation's latest emails, oldest first, in its partition: a reply's References.",
  prefixes: ['EMAIL_THREAD'],
  keys: { pk: 'WS#<tenant>#CONV#<conversationId>', sk: 'EMAIL_THREAD' },
  patterns: [{ read: 'email thread of a conversation', by: 'pk=<tenant>#CONV#<conversationId> sk=EMAIL_THREAD' }],
  schema: z.object({ ids: z.array(z.string()).default([]) }),
});

export const incomingGuard = declare({
  name: 'Incoming message guard',
  itemTypes: ['INCOMING_GUARD'],
  personal: [],
  about: "Records a channel's message id once, so a repeated delivery is not recorded twice.",
  prefixes: ['INCOMING', 'GUARD'],
  keys: { pk: 'WS#<tenant>#INCOMING#<channel>#<externalId>', sk: 'GUARD' },
  patterns: [{ read: 'message already recorded', by: 'pk=<tenant>#INCOMING#<channel>#<externalId> sk=GUARD' }],
  schema: z.object({ messageId: z.string(), conversationId: z.string(), messageCreatedAt: z.string() }),
});

export const emailMessage = declare({
  name: 'Email message id',
  itemTypes: ['EMAIL_MESSAGE_ID'],
  personal: [],
  about: 'Maps an email `Message-ID` to its conversation, to thread replies.',
  prefixes: ['EMAILMSG'],
  keys: { pk: 'WS#<tenant>#EMAILMSG#<messageId>', sk: 'EMAILMSG' },
  patterns: [{ read: 'conversation of a Message-ID', by: 'pk=<tenant>#EMAILMSG#<messageId> sk=EMAILMSG' }],
  schema: z.object({ conversationId: z.string() }),
});
