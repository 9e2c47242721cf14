import { entity } from './define';

export const realtimeTicket = entity({
  name: 'Realtime ticket',
  about: 'A single-use ticket for opening a realtime socket, found by the hash of its secret; redeemed by a conditional delete (TTL).',
  prefixes: ['RTTICKET'],
  keys: { pk: 'RTTICKET#<sha256>', sk: 'RTTICKET' },
  patterns: [{ read: 'ticket by hash (redeemed with a conditional delete)', by: 'pk=RTTICKET#<sha256> sk=RTTICKET' }],
});

export const realtimeConnection = entity({
  name: 'Realtime connection',
  about:
    "An open realtime socket: its subscription and replay state in its tenant's partition, and a pointer by connection id that the token's index lists (TTL: API Gateway's 2-hour maximum).",
  prefixes: ['RTCONNS', 'RTCONN', 'RTTOKEN'],
  keys: {
    pk: '<tenant>#RTCONNS | RTCONN#<connection id>',
    sk: '<connection id> | RTCONN',
    gsi1pk: 'RTTOKEN#<token id>',
    gsi1sk: '<connection id>',
  },
  patterns: [
    { read: "the tenant's sockets (push)", by: 'pk=<tenant>#RTCONNS' },
    { read: 'socket by connection id', by: 'pk=RTCONN#<connection id> sk=RTCONN' },
    { read: "a token's sockets (revoke, the per-token cap)", by: 'gsi1pk=RTTOKEN#<token id>', index: 'gsi1' },
  ],
});
