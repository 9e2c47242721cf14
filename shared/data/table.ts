/**
 * The single table's physical shape, shared by the CDK stack and the local runtime so they cannot drift.
 *
 * Access patterns (every one is a GetItem or a Query on a known partition; nothing scans):
 * - token by hash ............ pk=TOKEN#<sha256>            sk=TOKEN
 * - token by id .............. gsi1pk=TOKENID#<id>
 * - tokens of a workspace .... pk=<tenant>                 sk begins_with TOKEN#
 * - workspace by id .......... pk=<tenant>                 sk=WORKSPACE
 * - all workspaces ........... gsi1pk=WORKSPACES           gsi1sk=<ws id>
 * - per-workspace counters ... pk=<tenant>                 sk=COUNTER#<name>
 * - rate-limit windows ....... pk=RL#<subject>#<category>#<window start>  (TTL)
 * - outbox events ............ pk=EVT#<eventId>            sk=EVENT  (TTL; Streams → bus)
 * - idempotency keys ......... pk=<tenant>#IDEM#<token id>#<sha256 of key>  sk=IDEM, BODY#<n>  (TTL)
 * Every workspace-owned item's partition key starts with its tenant (see keys.ts).
 */
export const tableSchema = {
  partitionKey: 'pk',
  sortKey: 'sk',
  ttlAttribute: 'ttl',
  indexes: [
    { name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
    { name: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk' },
  ],
} as const;

export type IndexName = (typeof tableSchema.indexes)[number]['name'];

/** Item type written by the transactional outbox; the only items the event pipe forwards. */
export const EVENT_ITEM_TYPE = 'EVENT';
