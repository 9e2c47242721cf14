/**
 * The single table's physical shape, shared by the CDK stack and the local runtime so they cannot drift.
 * What it holds (every key, index and access pattern) is declared in the key registry, `registry/`, and
 * shown on docs/contributing/data-model.md. Nothing scans.
 *
 * An index projects every attribute (`ALL`) unless it says otherwise. `KEYS_ONLY` indexes hold list entries of
 * items that change often (a conversation's status lists): an update that leaves the index's keys alone writes no
 * entry, where an `ALL` index rewrites its copy of the item on every change. Their readers fetch the items by key.
 * CloudFormation adds one index per stack update, so gsi3 and gsi4 deploy in two (docs/contributing/data-model.md).
 */
export type Projection = 'ALL' | 'KEYS_ONLY';

export const tableSchema = {
  partitionKey: 'pk',
  sortKey: 'sk',
  ttlAttribute: 'ttl',
  indexes: [
    { name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk', projection: 'ALL' },
    { name: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk', projection: 'ALL' },
    { name: 'gsi3', partitionKey: 'gsi3pk', sortKey: 'gsi3sk', projection: 'KEYS_ONLY' },
    { name: 'gsi4', partitionKey: 'gsi4pk', sortKey: 'gsi4sk', projection: 'KEYS_ONLY' },
  ] as const satisfies readonly { name: string; partitionKey: string; sortKey: string; projection: Projection }[],
} as const;

export type IndexName = (typeof tableSchema.indexes)[number]['name'];

/** Item type written by the transactional outbox; the only items the event pipe forwards. */
export const EVENT_ITEM_TYPE = 'EVENT';
