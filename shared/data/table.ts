/**
 * The single table's physical shape, shared by the CDK stack and the local runtime so they cannot drift.
 * What it holds (every key, index and access pattern) is declared in the key registry, `registry/`, and
 * shown on docs/contributing/data-model.md. Nothing scans.
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
