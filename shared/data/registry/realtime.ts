import * as z from 'zod';
import { tenantField } from '../../domain/auth/tenant';
import { declare } from './define';

export const realtimeTicket = /* @__PURE__ */ declare({
  name: 'Realtime ticket',
  itemTypes: [],
  personal: [],
  about: 'A single-use ticket for opening a realtime socket, found by the hash of its secret; redeemed by a conditional delete (TTL).',
  prefixes: ['RTTICKET'],
  keys: { pk: 'RTTICKET#<hash>', sk: 'RTTICKET' },
  patterns: [{ read: 'ticket by hash (redeemed with a conditional delete)', by: 'pk=RTTICKET#<sha256> sk=RTTICKET' }],
  schema: () => z.object({ tenant: tenantField, tokenId: z.string(), scopes: z.array(z.string()), expiresAt: z.string() }),
});

export const realtimeConnection = /* @__PURE__ */ declare({
  name: 'Realtime connection',
  itemTypes: [],
  personal: [],
  about:
    "An open realtime socket: its subscription and replay state in its tenant's partition (TTL: API Gateway's 2-hour maximum). `connected` until it subscribes, `replaying` its backlog, then `live`.",
  prefixes: ['RTCONNS'],
  keys: { pk: 'WS#<tenant>#RTCONNS', sk: '<connectionId>' },
  patterns: [{ read: "the tenant's sockets (push, when it holds some)", by: 'pk=<tenant>#RTCONNS' }],
  schema: () =>
    z.object({
      connectionId: z.string(),
      tenant: tenantField,
      tokenId: z.string(),
      scopes: z.array(z.string()),
      state: z.enum(['connected', 'replaying', 'live']),
      /** What the subscription passes: exact event types and type prefixes, already narrowed to the token's read scopes. */
      exact: z.array(z.string()).nullable(),
      prefixes: z.array(z.string()).nullable(),
      since: z.string().nullable(),
      /** When the socket subscribed: its replay reads the events log no sooner than the index's lag after it. */
      subscribedAt: z.string().nullable(),
      /** Events that arrived live while the backlog replayed, sent after it. */
      pending: z.array(z.string()).nullable(),
      /** The latest replayed events, which a late live copy must not repeat. */
      seam: z.array(z.string()).nullable(),
    }),
});

export const realtimePointer = /* @__PURE__ */ declare({
  name: 'Realtime connection pointer',
  itemTypes: [],
  personal: [],
  about: "A socket's tenant by its connection id, which the token's index lists (TTL as the socket's).",
  prefixes: ['RTCONN', 'RTTOKEN'],
  keys: { pk: 'RTCONN#<connectionId>', sk: 'RTCONN', gsi1pk: 'RTTOKEN#<tokenId>', gsi1sk: '<connectionId>' },
  patterns: [
    { read: 'socket by connection id', by: 'pk=RTCONN#<connection id> sk=RTCONN' },
    { read: "a token's sockets (revoke, the per-token cap)", by: 'gsi1pk=RTTOKEN#<token id>', index: 'gsi1' },
  ],
  schema: () => z.object({ tenant: tenantField }),
});

export const realtimePresence = /* @__PURE__ */ declare({
  name: 'Realtime presence',
  itemTypes: [],
  personal: [],
  about: 'How many sockets a tenant holds and when the newest of them ends at the latest: what a push reads first.',
  prefixes: ['RTPRESENCE'],
  keys: { pk: 'WS#<tenant>#RTPRESENCE', sk: 'RTPRESENCE' },
  patterns: [{ read: 'whether the tenant holds sockets (push, first)', by: 'pk=<tenant>#RTPRESENCE sk=RTPRESENCE' }],
  schema: () => z.object({ sockets: z.number().default(0), until: z.number().default(0) }),
  tradeOff:
    "every outbox event of every tenant reaches the push function, which first reads the tenant's presence: one consistent GetItem of an item under 100 bytes, 1 read request unit ($0.125 per million events on demand). A tenant without sockets stops there. A consistent Query of the sockets partition would cost the same 1 unit when the partition is empty, but it also reads every socket item still stored (up to about 6 KB each with its seam of replayed ids), including sockets that ended without a `$disconnect` until TTL removes them, which can take days. A tenant with sockets pays 1 unit more per event, the GetItem before the Query. The count is written with UpdateItem ADD, outside the socket's transaction, because a transaction on one hot item would conflict with every concurrent connect. It is incremented before the socket is stored and decremented after the socket is deleted, so a crash leaves it too high, never too low. A socket that only expires is never subtracted; `until` (when the newest socket ends, 2 hours after it connected) bounds that over-count, so such a tenant pays for the Query at most 2 hours longer.",
});
