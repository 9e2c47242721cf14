import { entity } from './define';

export const channel = entity({
  name: 'Channel account',
  itemTypes: ['CHANNEL', 'CHANNEL_SEND'],
  personal: [],
  about: 'A connected channel account; its sends are rate-limited per second and recorded once per key.',
  prefixes: ['CHANNEL', 'CHRATE', 'CHSEND', 'SANDBOX'],
  keys: {
    pk: '<tenant> | <tenant>#CHRATE#<channel id> | <tenant>#CHSEND#<channel id>#<send key> | <tenant>#SANDBOX#<channel id>',
    sk: 'CHANNEL#<id> | <unix second> | CHSEND | <send key>',
  },
  patterns: [
    { read: 'channel account by id', by: 'pk=<tenant> sk=CHANNEL#<id>' },
    { read: 'channel accounts', by: 'pk=<tenant> sk begins_with CHANNEL#' },
    { read: 'what was sent under a key', by: 'pk=<tenant>#CHSEND#<channel id>#<send key> sk=CHSEND' },
    { read: "the sandbox provider's log", by: 'pk=<tenant>#SANDBOX#<channel id> sk=<send key>' },
  ],
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
