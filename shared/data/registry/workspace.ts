import * as z from 'zod';
import {
  DEFAULT_LOCALE,
  DEFAULT_STORAGE_QUOTA_BYTES,
  DEFAULT_TIMEZONE,
  defaultBusinessHours,
  defaultRetention,
} from '../../domain/auth/workspace';
import { token as tokenView, workspace as workspaceView } from '../../views/auth';
import { declare, entity } from './define';

export const workspace = declare({
  name: 'Workspace',
  itemTypes: ['WORKSPACE'],
  personal: [],
  about:
    'A workspace; its partition `<tenant>` also holds the tenant-wide singletons and small collections below. One that sets a retention is in the sparse index the retention sweep reads.',
  prefixes: ['WS', 'WORKSPACE', 'WORKSPACES', 'RETENTION'],
  keys: { pk: 'WS#<tenant>', sk: 'WORKSPACE', gsi1pk: 'WORKSPACES', gsi1sk: '<workspaceId>', gsi2pk: 'RETENTION', gsi2sk: '<workspaceId>' },
  patterns: [
    { read: 'workspace by id', by: 'pk=<tenant> sk=WORKSPACE' },
    { read: 'all workspaces', by: 'gsi1pk=WORKSPACES', index: 'gsi1' },
    { read: 'workspaces with a retention', by: 'gsi2pk=RETENTION', index: 'gsi2' },
  ],
  // Items written before a setting existed read as its default.
  schema: workspaceView.extend({
    timezone: workspaceView.shape.timezone.default(DEFAULT_TIMEZONE),
    locale: workspaceView.shape.locale.default(DEFAULT_LOCALE),
    businessHours: workspaceView.shape.businessHours.default(defaultBusinessHours),
    storageQuotaBytes: workspaceView.shape.storageQuotaBytes.default(DEFAULT_STORAGE_QUOTA_BYTES),
    retention: workspaceView.shape.retention.default(defaultRetention),
  }),
});

export const counter = entity({
  name: 'Counter',
  itemTypes: [],
  personal: [],
  about: 'An exact per-tenant counter (optionally sharded: `#<shard>` appended) or a sequence of numbers.',
  prefixes: ['COUNTER', 'SEQUENCE'],
  keys: { pk: '<tenant>', sk: 'COUNTER#<name>[#<shard>] | SEQUENCE#<name>' },
  patterns: [
    { read: 'a counter', by: 'pk=<tenant> sk=COUNTER#<name>' },
    { read: 'a sharded counter', by: 'pk=<tenant> sk begins_with COUNTER#<name>#' },
    { read: 'next number of a sequence', by: 'pk=<tenant> sk=SEQUENCE#<name> (UpdateItem ADD)' },
  ],
});

export const token = declare({
  name: 'Token',
  itemTypes: ['TOKEN'],
  personal: [],
  about:
    'An API token, found by the hash of its secret; it also keeps, per rate category, the current window and its count, so one conditional update authenticates and admits a request.',
  prefixes: ['TOKEN', 'TOKENID'],
  keys: { pk: 'TOKEN#<hash>', sk: 'TOKEN', gsi1pk: 'TOKENID#<id>', gsi1sk: 'TOKEN' },
  patterns: [
    { read: 'token by hash', by: 'pk=TOKEN#<sha256> sk=TOKEN' },
    { read: 'token by id', by: 'gsi1pk=TOKENID#<token id>', index: 'gsi1' },
  ],
  schema: tokenView.omit({ environment: true }),
});

export const tokenBinding = declare({
  name: 'Token binding',
  itemTypes: ['TOKEN_BINDING'],
  personal: [],
  about: 'A copy of a token under each workspace it is bound to (live mode), which lists it there.',
  prefixes: [],
  keys: { pk: 'WS#<tenant>', sk: 'TOKEN#<id>' },
  patterns: [{ read: 'tokens of a workspace', by: 'pk=<tenant> sk begins_with TOKEN#' }],
  schema: tokenView.omit({ environment: true }),
});

export const idempotency = entity({
  name: 'Idempotency record',
  itemTypes: ['IDEMPOTENCY', 'IDEMPOTENCY_BODY'],
  personal: ['body'],
  about:
    'The answer recorded for an `Idempotency-Key`, its large body gzipped in chunks (TTL). A completed record is listed under its tenant, so an erasure finds the answers that name a customer.',
  prefixes: ['IDEM', 'BODY', 'IDEMS'],
  keys: {
    pk: '<tenant>#IDEM#<token id>#<sha256 of key>',
    sk: 'IDEM | BODY#<n, 3 digits>',
    gsi1pk: '<tenant>#IDEMS',
    gsi1sk: '<token id>#<sha256 of key>',
  },
  patterns: [
    { read: 'record and body chunks', by: 'pk=<tenant>#IDEM#<token id>#<sha256 of key>' },
    { read: "a tenant's completed records (erasure)", by: 'gsi1pk=<tenant>#IDEMS', index: 'gsi1' },
  ],
  tradeOff:
    'The index entry costs one more write unit per idempotent request; without it an erasure could not find the recorded answers that name the customer short of scanning the table.',
});

export const rateLimit = declare({
  name: 'Rate-limit window',
  itemTypes: [],
  personal: ['pk'],
  about: 'A count of one subject in one fixed window (TTL); a failed authentication counts per source IP.',
  prefixes: ['RL', 'AUTHFAIL'],
  keys: { pk: 'RL#<subject>#<window>', sk: 'RL' },
  patterns: [{ read: 'count of a window', by: 'pk=RL#<subject>#<window start> sk=RL, subject AUTHFAIL#<source ip>' }],
  schema: z.object({ n: z.number().default(0) }),
});

export const outboxEvent = entity({
  name: 'Outbox event',
  itemTypes: ['EVENT', 'EVENT_BODY'],
  personal: ['payload'],
  about:
    'An event written in the transaction of its change; the table stream forwards it to the bus (TTL). Its index entry is the events log of its tenant.',
  prefixes: ['EVT', 'EVENT', 'EVENTS'],
  keys: { pk: 'EVT#<event id>', sk: 'EVENT', gsi2pk: '<tenant>#EVENTS', gsi2sk: '<event id>' },
  patterns: [
    { read: 'event body', by: 'pk=EVT#<event id> sk=EVENT' },
    {
      read: 'events log, newest first, or after an event (since), in a time range',
      by: 'gsi2pk=<tenant>#EVENTS gsi2sk between <from id> and <to id>',
      index: 'gsi2',
    },
  ],
});
