import * as z from 'zod';
import { token as tokenView } from '../../views/tokens';
import { declare } from './define';

/* What every request reads or writes beside its own items: its token, its idempotency record, its rate-limit window, and the events it commits. */

export const token = /* @__PURE__ */ declare({
  name: 'Token',
  itemTypes: ['TOKEN'],
  personal: [],
  about:
    'An API token, found by the hash of its secret; it also keeps, per rate category, the current window and its count, so one conditional update authenticates and admits a request. It is in no index, so that update writes one item and nothing else (tokens made before the id pointer existed are in gsi1 by id, and read there).',
  prefixes: ['TOKEN'],
  keys: { pk: 'TOKEN#<hash>', sk: 'TOKEN', gsi1pk: 'TOKENID#<id>', gsi1sk: 'TOKEN' },
  patterns: [
    { read: 'token by hash', by: 'pk=TOKEN#<sha256> sk=TOKEN' },
    { read: 'token by id, made before its id pointer existed', by: 'gsi1pk=TOKENID#<token id>', index: 'gsi1' },
  ],
  schema: () => tokenView.omit({ environment: true }),
});

export const tokenPointer = /* @__PURE__ */ declare({
  name: 'Token id pointer',
  itemTypes: ['TOKEN_ID'],
  personal: [],
  about: "A token's hash by its id: how a revocation or a read by id finds the token.",
  prefixes: ['TOKENID'],
  keys: { pk: 'TOKENID#<id>', sk: 'TOKEN' },
  patterns: [{ read: 'token by id', by: 'pk=TOKENID#<token id> sk=TOKEN, then the token by its hash' }],
  schema: () => z.object({ hash: z.string() }),
  tradeOff:
    "every API request updates its token's rate-limit window. While the token item carried the index entry by id, each such update also rewrote that entry (every index projects all attributes): 2 write units per request instead of 1. The pointer costs one more item when a token is made and one more read when a token is read by id, both rare.",
});

export const tokenBinding = /* @__PURE__ */ declare({
  name: 'Token binding',
  itemTypes: ['TOKEN_BINDING'],
  personal: [],
  about: 'A copy of a token under each workspace it is bound to (live mode), which lists it there.',
  prefixes: [],
  keys: { pk: 'WS#<tenant>', sk: 'TOKEN#<id>' },
  patterns: [{ read: 'tokens of a workspace', by: 'pk=<tenant> sk begins_with TOKEN#' }],
  schema: () => tokenView.omit({ environment: true }),
});

export const idempotency = /* @__PURE__ */ declare({
  name: 'Idempotency record',
  itemTypes: ['IDEMPOTENCY'],
  personal: ['body'],
  about:
    'The answer recorded for an `Idempotency-Key`, scoped to the token and the workspace mode by its key (TTL). A body too large to sit in the record is gzipped into chunk items of its partition, written in the same transaction. A completed record is listed under its tenant, so an erasure finds the answers that name a customer.',
  prefixes: ['IDEM', 'IDEMS'],
  keys: {
    pk: 'WS#<tenant>#IDEM#<tokenId>#<keyDigest>',
    sk: 'IDEM',
    gsi1pk: 'WS#<tenant>#IDEMS',
    gsi1sk: '<tokenId>#<keyDigest>',
  },
  patterns: [
    { read: 'record and body chunks', by: 'pk=<tenant>#IDEM#<token id>#<sha256 of key>' },
    { read: "a tenant's completed records (erasure)", by: 'gsi1pk=<tenant>#IDEMS', index: 'gsi1' },
  ],
  schema: () =>
    z.object({
      fingerprint: z.string(),
      status: z.enum(['running', 'done']),
      owner: z.string(),
      lockUntil: z.number(),
      expiresAt: z.number(),
      commits: z.number(),
      statusCode: z.number().optional(),
      headers: z.record(z.string(), z.string()).optional(),
      body: z.string().optional(),
      bodyChunks: z.number().optional(),
    }),
  tradeOff:
    'The index entry costs one more write unit per idempotent request; without it an erasure could not find the recorded answers that name the customer short of scanning the table.',
});

export const idempotencyBody = /* @__PURE__ */ declare({
  name: 'Idempotency body chunk',
  itemTypes: ['IDEMPOTENCY_BODY'],
  personal: ['data'],
  about: "A piece of a large recorded answer's gzipped body, in its record's partition, numbered from 000 (TTL).",
  prefixes: ['BODY'],
  keys: { pk: 'WS#<tenant>#IDEM#<tokenId>#<keyDigest>', sk: 'BODY#<n>' },
  patterns: [{ read: 'body chunks, with their record', by: 'pk=<tenant>#IDEM#<token id>#<sha256 of key>' }],
  schema: () => z.object({ data: z.instanceof(Uint8Array) }),
});

export const rateLimit = /* @__PURE__ */ declare({
  name: 'Rate-limit window',
  itemTypes: [],
  personal: ['pk'],
  about: 'The failed authentications from one source address in one fixed window (TTL).',
  prefixes: ['RL', 'AUTHFAIL'],
  keys: { pk: 'RL#AUTHFAIL#<sourceIp>#<window>', sk: 'RL' },
  patterns: [{ read: 'count of a window', by: 'pk=RL#AUTHFAIL#<source ip>#<window start> sk=RL' }],
  schema: () => z.object({ n: z.number().default(0) }),
});

// The serialised envelope, plain or packed (see `packText`); a ping's body has nothing else.
const eventSchema = () =>
  z.object({
    eventId: z.string().optional(),
    eventType: z.string().optional(),
    workspaceId: z.string().optional(),
    payload: z.string().optional(),
    payloadZ: z.string().optional(),
    requestId: z.string().optional(),
  });

export const outboxEvent = /* @__PURE__ */ declare({
  name: 'Outbox event',
  itemTypes: ['EVENT'],
  personal: ['payload', 'payloadZ'],
  about:
    "An event written in the transaction of its change; the table stream forwards it to the bus (TTL 30 days, as long as the webhook delivery log: it is the one stored copy of the body every delivery attempt sends). Its tenant's partition is the tenant's events log.",
  prefixes: ['EVENTS'],
  keys: { pk: 'WS#<tenant>#EVENTS', sk: '<eventId>' },
  patterns: [
    { read: 'event body', by: 'pk=<tenant>#EVENTS sk=<event id>' },
    {
      read: 'events log, newest first, or after an event (since), in a time range',
      by: 'pk=<tenant>#EVENTS sk between <from id> and <to id>',
    },
  ],
  tradeOff:
    'The events log is the partition itself, not an index entry: an event costs its item alone, 2 write units in a transaction, where the entry in gsi2 (all attributes) cost 1 more on every write that emits an event. Every event of a tenant shares one partition key, as the index entry did, so its throughput per tenant is the same.',
  schema: eventSchema,
});

export const eventBody = /* @__PURE__ */ declare({
  name: 'Event body by id',
  itemTypes: ['EVENT_BODY'],
  personal: ['payload', 'payloadZ'],
  about:
    "An event body found by its id alone: a body stored for webhooks only (a ping), which is in no log; and every event stored before the events log moved into its tenant's partition, whose gsi2 entry was the log (read with it until it expires, 30 days after).",
  prefixes: ['EVT', 'EVENT'],
  keys: { pk: 'EVT#<eventId>', sk: 'EVENT', gsi2pk: 'WS#<tenant>#EVENTS', gsi2sk: '<eventId>' },
  patterns: [
    { read: 'a ping body, or an event stored before', by: 'pk=EVT#<event id> sk=EVENT' },
    {
      read: 'events log stored before, beside the partition',
      by: 'gsi2pk=<tenant>#EVENTS gsi2sk between <from id> and <to id>',
      index: 'gsi2',
    },
  ],
  schema: eventSchema,
});
