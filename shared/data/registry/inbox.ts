import { entity } from './define';

export const conversation = entity({
  name: 'Conversation',
  itemTypes: ['CONVERSATION'],
  personal: ['subject'],
  about: "A conversation; snoozed ones are in the timer's sparse index of wake-ups.",
  prefixes: ['CONV', 'CONVERSATION', 'SNOOZED'],
  keys: { pk: '<tenant>#CONV#<id>', sk: 'CONVERSATION', gsi1pk: 'SNOOZED', gsi1sk: '<snoozedUntil>#<tenant>#<id>' },
  patterns: [
    { read: 'conversation by id', by: 'pk=<tenant>#CONV#<id> sk=CONVERSATION' },
    { read: 'snoozed conversations due', by: 'gsi1pk=SNOOZED gsi1sk ≤ now', index: 'gsi1' },
  ],
});

export const conversationList = entity({
  name: 'Conversation list membership',
  itemTypes: ['CONV_LIST'],
  personal: [],
  about: 'A conversation in one of its lists (status, assignee, channel, customer…), counted exactly.',
  prefixes: ['CONVLIST'],
  keys: { pk: '<tenant>#CONVLIST#<list>', sk: '<createdAt>#<id>' },
  patterns: [{ read: 'a list, newest first', by: 'pk=<tenant>#CONVLIST#<list>' }],
});

export const message = entity({
  name: 'Message',
  itemTypes: ['MESSAGE', 'EMAIL_THREAD'],
  personal: ['content', 'author', 'attachments', 'externalId'],
  about: "A message, in its conversation's partition; the email thread headers share it too.",
  prefixes: ['MSG', 'EMAIL_THREAD'],
  keys: { pk: '<tenant>#CONV#<conversation id>', sk: 'MSG#<createdAt>#<id> | EMAIL_THREAD' },
  patterns: [
    { read: 'messages of a conversation, oldest or newest first', by: 'pk=<tenant>#CONV#<conversation id> sk begins_with MSG#' },
    { read: 'email thread of a conversation', by: 'pk=<tenant>#CONV#<conversation id> sk=EMAIL_THREAD' },
  ],
});

export const incomingGuard = entity({
  name: 'Incoming message guard',
  itemTypes: ['INCOMING_GUARD'],
  personal: [],
  about: "Records a channel's message id once, so a repeated delivery is not recorded twice.",
  prefixes: ['INCOMING', 'GUARD'],
  keys: { pk: '<tenant>#INCOMING#<channel>#<external id>', sk: 'GUARD' },
  patterns: [{ read: 'message already recorded', by: 'pk=<tenant>#INCOMING#<channel>#<external id> sk=GUARD' }],
});

export const emailMessage = entity({
  name: 'Email message id',
  itemTypes: ['EMAIL_MESSAGE_ID'],
  personal: [],
  about: 'Maps an email `Message-ID` to its conversation, to thread replies.',
  prefixes: ['EMAILMSG'],
  keys: { pk: '<tenant>#EMAILMSG#<message id>', sk: 'EMAILMSG' },
  patterns: [{ read: 'conversation of a Message-ID', by: 'pk=<tenant>#EMAILMSG#<message id> sk=EMAILMSG' }],
});
