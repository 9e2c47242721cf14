import * as z from 'zod';
import {
  DEFAULT_LOCALE,
  DEFAULT_STORAGE_QUOTA_BYTES,
  DEFAULT_TIMEZONE,
  defaultBusinessHours,
  defaultRetention,
} from '../../domain/auth/workspace';
import { workspace as workspaceView } from '../../views/auth';
import { declare } from './define';

export const workspace = /* @__PURE__ */ declare({
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
  schema: () =>
    workspaceView.extend({
      timezone: workspaceView.shape.timezone.default(DEFAULT_TIMEZONE),
      locale: workspaceView.shape.locale.default(DEFAULT_LOCALE),
      businessHours: workspaceView.shape.businessHours.default(defaultBusinessHours),
      storageQuotaBytes: workspaceView.shape.storageQuotaBytes.default(DEFAULT_STORAGE_QUOTA_BYTES),
      retention: workspaceView.shape.retention.default(defaultRetention),
    }),
});

export const counter = /* @__PURE__ */ declare({
  name: 'Counter',
  itemTypes: [],
  personal: [],
  about:
    'An exact per-tenant count, one number attribute per total it keeps (`n` by default). The counts that concurrent writers would collide on are sharded entities of their own (execution counts, broadcast stats).',
  prefixes: ['COUNTER'],
  keys: { pk: 'WS#<tenant>', sk: 'COUNTER#<name>' },
  patterns: [{ read: 'a counter', by: 'pk=<tenant> sk=COUNTER#<name>' }],
  schema: () => z.object({ n: z.number().default(0) }),
});

export const sequence = /* @__PURE__ */ declare({
  name: 'Sequence',
  itemTypes: [],
  personal: [],
  about: 'A sequence of numbers (e.g. conversation numbers): each use adds one to `n` and takes the new value; a failed use leaves a gap.',
  prefixes: ['SEQUENCE'],
  keys: { pk: 'WS#<tenant>', sk: 'SEQUENCE#<name>' },
  patterns: [{ read: 'next number of a sequence', by: 'pk=<tenant> sk=SEQUENCE#<name> (UpdateItem ADD)' }],
  schema: () => z.object({ n: z.number() }),
});
