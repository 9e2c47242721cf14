import { entity } from './define';

export const realtimeTicket = entity({
  name: 'Realtime ticket',
  itemTypes: [],
  personal: [],
  about: 'A single-use ticket for opening a realtime socket, found by the hash of its secret; redeemed by a conditional delete (TTL).',
  prefixes: ['RTTICKET'],
  keys: { pk: 'RTTICKET#<sha256>', sk: 'RTTICKET' },
  patterns: [{ read: 'ticket by hash (redeemed with a conditional delete)', by: 'pk=RTTICKET#<sha256> sk=RTTICKET' }],
});

export const realtimeConnection = entity({
  name: 'Realtime connection',
  itemTypes: [],
  personal: [],
  about:
    "An open realtime socket: its subscription and replay state in its tenant's partition, a pointer by connection id that the token's index lists (TTL: API Gateway's 2-hour maximum), and the tenant's presence (its count of sockets and when the newest ends), which a push reads before anything else.",
  prefixes: ['RTCONNS', 'RTCONN', 'RTTOKEN', 'RTPRESENCE'],
  keys: {
    pk: '<tenant>#RTCONNS | RTCONN#<connection id> | <tenant>#RTPRESENCE',
    sk: '<connection id> | RTCONN | RTPRESENCE',
    gsi1pk: 'RTTOKEN#<token id>',
    gsi1sk: '<connection id>',
  },
  patterns: [
    { read: 'whether the tenant holds sockets (push, first)', by: 'pk=<tenant>#RTPRESENCE sk=RTPRESENCE' },
    { read: "the tenant's sockets (push, when it holds some)", by: 'pk=<tenant>#RTCONNS' },
    { read: 'socket by connection id', by: 'pk=RTCONN#<connection id> sk=RTCONN' },
    { read: "a token's sockets (revoke, the per-token cap)", by: 'gsi1pk=RTTOKEN#<token id>', index: 'gsi1' },
  ],
  tradeOff:
    "every outbox event of every tenant reaches the push function, which first reads the tenant's presence: one consistent GetItem of an item under 100 bytes, 1 read request unit ($0.125 per million events on demand). A tenant without sockets stops there. A consistent Query of the sockets partition would cost the same 1 unit when the partition is empty, but it also reads every socket item still stored (up to about 6 KB each with its seam of replayed ids), including sockets that ended without a `$disconnect` until TTL removes them, which can take days. A tenant with sockets pays 1 unit more per event, the GetItem before the Query. The count is written with UpdateItem ADD, outside the socket's transaction, because a transaction on one hot item would conflict with every concurrent connect. It is incremented before the socket is stored and decremented after the socket is deleted, so a crash leaves it too high, never too low. A socket that only expires is never subtracted; `until` (when the newest socket ends, 2 hours after it connected) bounds that over-count, so such a tenant pays for the Query at most 2 hours longer.",
});
