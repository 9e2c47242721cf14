import * as z from 'zod';
import { account as accountView } from '../../views/channels';
import type { Stats } from '../../domain/broadcasts/broadcast';
import { campaign, recipient as recipientView } from '../../views/broadcasts';
import { exactly } from '../../views/common';
import { built } from '../../domain/built';
import { declare } from './define';

export const channel = /* @__PURE__ */ declare({
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
  schema: () =>
    accountView.omit({ type: true }).extend({ channelType: accountView.shape.type, version: z.number(), sealedSecrets: z.string() }),
});

export const channelRate = /* @__PURE__ */ declare({
  name: 'Channel send rate',
  itemTypes: [],
  personal: [],
  about: "A channel account's sends in one clock second, granted by one atomic ADD (TTL two minutes).",
  prefixes: ['CHRATE'],
  keys: { pk: 'WS#<tenant>#CHRATE#<channelId>', sk: '<second>' },
  patterns: [],
  schema: () => z.object({ n: z.number() }),
});

export const channelSend = /* @__PURE__ */ declare({
  name: 'Channel send',
  itemTypes: ['CHANNEL_SEND'],
  personal: [],
  about:
    'What a channel sent under a key (its `id` in the outgoing request), written with the send: a status callback finds the message or broadcast recipient by it.',
  prefixes: ['CHSEND'],
  keys: { pk: 'WS#<tenant>#CHSEND#<channelId>#<sendKey>', sk: 'CHSEND' },
  patterns: [{ read: 'what was sent under a key', by: 'pk=<tenant>#CHSEND#<channel id>#<send key> sk=CHSEND' }],
  schema: () =>
    z.object({
      target: z.enum(['message', 'recipient']),
      ref: z.object({ _id: z.string(), conversationId: z.string(), createdAt: z.string() }).optional(),
      broadcastId: z.string().optional(),
      customerId: z.string().optional(),
    }),
});

export const sandboxSend = /* @__PURE__ */ declare({
  name: 'Sandbox provider send',
  itemTypes: [],
  personal: ['customerId', 'content'],
  about:
    "The simulated provider's own log of what it accepted, per send key: its `sends` count is bumped in the transaction that records the send, so it is exactly the number of times the provider accepted it.",
  prefixes: ['SANDBOX'],
  keys: { pk: 'WS#<tenant>#SANDBOX#<channelId>', sk: '<sendKey>' },
  patterns: [{ read: "the sandbox provider's log", by: 'pk=<tenant>#SANDBOX#<channel id> sk=<send key>' }],
  schema: () => z.object({ kind: z.string(), customerId: z.string(), content: z.string().nullable(), sends: z.number() }),
});

export const broadcast = /* @__PURE__ */ declare({
  name: 'Broadcast',
  itemTypes: ['BROADCAST'],
  personal: ['content', 'subject'],
  about:
    "A broadcast (versioned), counted by the workspace counter `broadcasts`; one waiting to start, or started and not yet fanned out (`fannedOut`: every recipient written and enqueued), is in the timer's index.",
  prefixes: ['BROADCAST', 'BROADCASTS_DUE'],
  keys: { pk: 'WS#<tenant>', sk: 'BROADCAST#<id>', gsi1pk: 'BROADCASTS_DUE', gsi1sk: '<dueAt>#<tenant>#<id>' },
  patterns: [
    { read: 'broadcast by id', by: 'pk=<tenant> sk=BROADCAST#<id>' },
    { read: 'broadcasts, newest first', by: 'pk=<tenant> sk begins_with BROADCAST#' },
    { read: 'broadcasts due', by: 'gsi1pk=BROADCASTS_DUE gsi1sk ≤ now', index: 'gsi1' },
  ],
  schema: () => campaign.omit({ stats: true }).extend({ version: z.number(), fannedOut: z.boolean().default(false) }),
});

/** A shard holds only the totals bumped on it. */
const shardTotal = /* @__PURE__ */ built(() => z.number().default(0));

export const broadcastStats = /* @__PURE__ */ declare({
  name: 'Broadcast stats',
  itemTypes: [],
  personal: [],
  about:
    "A broadcast's exact stats in 8 shards (recipients are settled in parallel), one attribute per total, bumped in the transaction that changes a recipient.",
  prefixes: ['STATS'],
  keys: { pk: 'WS#<tenant>#BROADCAST#<id>', sk: 'STATS#<shard>' },
  patterns: [{ read: 'stats of a broadcast', by: 'pk=<tenant>#BROADCAST#<id> sk begins_with STATS#' }],
  schema: () =>
    exactly<Stats>()(
      z.object({
        recipients: shardTotal,
        sent: shardTotal,
        delivered: shardTotal,
        read: shardTotal,
        failed: shardTotal,
        skipped: shardTotal,
        cancelled: shardTotal,
      }),
    ),
});

export const broadcastRecipient = /* @__PURE__ */ declare({
  name: 'Broadcast recipient',
  itemTypes: ['BROADCAST_RECIPIENT'],
  personal: ['customerId', 'sk'],
  about:
    "A broadcast's recipient, one per customer (so a customer reached through two tags, or a fan-out that runs twice, is one recipient), with its send state: `leaseUntil` (a worker holds the send), `attempts`, `notBefore` (a retry's earliest time). Left to expire unlisted when its broadcast is deleted.",
  prefixes: ['RCPT'],
  keys: { pk: 'WS#<tenant>#BROADCAST#<broadcastId>', sk: 'RCPT#<customerId>' },
  patterns: [{ read: 'recipients of a broadcast', by: 'pk=<tenant>#BROADCAST#<id> sk begins_with RCPT#' }],
  schema: () =>
    recipientView.extend({ attempts: z.number().default(0), leaseUntil: z.number().optional(), notBefore: z.number().optional() }),
});
