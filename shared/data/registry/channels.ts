import * as z from 'zod';
import { account as accountView } from '../../views/channels';
import { declare, entity } from './define';

export const channel = declare({
  name: 'Channel account',
  itemTypes: ['CHANNEL'],
  personal: [],
  about:
    "A connected channel account (versioned), counted by the workspace counter `channels`. The item's `type` names the entity; the account's own type is `channelType`. Its secrets are one sealed attribute, `sealedSecrets`, which only the reads named `sealed…` return.",
  prefixes: ['CHANNEL'],
  keys: { pk: 'WS#<tenant>', sk: 'CHANNEL#<id>' },
  patterns: [
    { read: 'channel account by id', by: 'pk=<tenant> sk=CHANNEL#<id>' },
    { read: 'channel accounts', by: 'pk=<tenant> sk begins_with CHANNEL#' },
  ],
  schema: accountView.omit({ type: true }).extend({ channelType: accountView.shape.type, version: z.number(), sealedSecrets: z.string() }),
});

export const channelRate = declare({
  name: 'Channel send rate',
  itemTypes: [],
  personal: [],
  about: "A channel account's sends in one clock second, granted by one atomic ADD (TTL two minutes).",
  prefixes: ['CHRATE'],
  keys: { pk: 'WS#<tenant>#CHRATE#<channelId>', sk: '<second>' },
  patterns: [],
  schema: z.object({ n: z.number() }),
});

export const channelSend = declare({
  name: 'Channel send',
  itemTypes: ['CHANNEL_SEND'],
  personal: [],
  about:
    'What a channel sent under a key (its `id` in the outgoing request), written with the send: a status callback finds the message or broadcast recipient by it.',
  prefixes: ['CHSEND'],
  keys: { pk: 'WS#<tenant>#CHSEND#<channelId>#<sendKey>', sk: 'CHSEND' },
  patterns: [{ read: 'what was sent under a key', by: 'pk=<tenant>#CHSEND#<channel id>#<send key> sk=CHSEND' }],
  schema: z.object({
    target: z.enum(['message', 'recipient']),
    ref: z.object({ _id: z.string(), conversationId: z.string(), createdAt: z.string() }).optional(),
    broadcastId: z.string().optional(),
    customerId: z.string().optional(),
  }),
});

export const sandboxSend = declare({
  name: 'Sandbox provider send',
  itemTypes: [],
  personal: ['customerId', 'content'],
  about:
    "The simulated provider's own log of what it accepted, per send key: its `sends` count is bumped in the transaction that records the send, so it is exactly the number of times the provider accepted it.",
  prefixes: ['SANDBOX'],
  keys: { pk: 'WS#<tenant>#SANDBOX#<channelId>', sk: '<sendKey>' },
  patterns: [{ read: "the sandbox provider's log", by: 'pk=<tenant>#SANDBOX#<channel id> sk=<send key>' }],
  schema: z.object({ kind: z.string(), customerId: z.string(), content: z.string().nullable(), sends: z.number() }),
});

export const broadcast = entity({
  name: 'Broadcast',
  itemTypes: ['BROADCAST', 'BROADCAST_RECIPIENT'],
  personal: ['content', 'subject'],
  about: "A broadcast, its sharded stats and its recipients; one not yet fanned out is in the timer's index.",
  prefixes: ['BROADCAST', 'BROADCASTS_DUE', 'STATS', 'RCPT'],
  keys: {
    pk: '<tenant> | <tenant>#BROADCAST#<id>',
    sk: 'BROADCAST#<id> | STATS#<shard> | RCPT#<customer id>',
    gsi1pk: 'BROADCASTS_DUE',
    gsi1sk: '<due time>#<tenant>#<id>',
  },
  patterns: [
    { read: 'broadcast by id', by: 'pk=<tenant> sk=BROADCAST#<id>' },
    { read: 'broadcasts, newest first', by: 'pk=<tenant> sk begins_with BROADCAST#' },
    { read: 'stats of a broadcast', by: 'pk=<tenant>#BROADCAST#<id> sk begins_with STATS#' },
    { read: 'recipients of a broadcast', by: 'pk=<tenant>#BROADCAST#<id> sk begins_with RCPT#' },
    { read: 'broadcasts due', by: 'gsi1pk=BROADCASTS_DUE gsi1sk ≤ now', index: 'gsi1' },
  ],
});
