import type { Entity, KeyAttribute } from '../../shared/data/registry/define';
import { entities } from '../../shared/data/registry/registry';
import { tableSchema } from '../../shared/data/table';

const ATTRIBUTES: readonly KeyAttribute[] = ['pk', 'sk', 'gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk'];
const code = (text: string) => `\`${text.replaceAll('|', '\\|')}\``;
const anchor = (e: Entity) =>
  e.name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

const keyTable = (e: Entity) => [
  '| Key | Shape |',
  '|---|---|',
  ...ATTRIBUTES.filter((a) => e.keys[a]).map((a) => `| \`${a}\` | ${code(e.keys[a]!)} |`),
];

const section = (e: Entity) => [
  `## ${e.name}`,
  '',
  e.about,
  '',
  `Declares: ${e.prefixes.length ? e.prefixes.map((p) => `\`${p}\``).join(', ') : 'no segment of its own'}.`,
  '',
  ...keyTable(e),
  ...(e.tradeOff ? ['', `Trade-off: ${e.tradeOff}`] : []),
];

const chart = entities.flatMap((e) =>
  e.patterns.map((p) => `| [${e.name}](#${anchor(e)}) | ${p.read} | ${p.index ? `\`${p.index}\`` : 'table'} | ${code(p.by)} |`),
);

/** The data-model page, rendered from the key registry (`shared/data/registry/`). */
export const dataModelPage = (): string =>
  [
    '# Data model',
    '',
    '<!-- Generated from shared/data/registry/ by `npm run data-model`; do not edit by hand. -->',
    '',
    `Parley keeps every item in one DynamoDB table: partition key \`${tableSchema.partitionKey}\`, sort key \`${tableSchema.sortKey}\`,`,
    `TTL attribute \`${tableSchema.ttlAttribute}\`, and the global secondary indexes ${tableSchema.indexes.map((i) => `\`${i.name}\` (\`${i.partitionKey}\`, \`${i.sortKey}\`)`).join(' and ')}.`,
    'Keys are segments joined by `#`. `<tenant>` stands for `WS#<tenant>`: the workspace id, followed by `~test` in',
    '[test mode](../guide/test-mode.md), so every workspace-owned key starts with its tenant and a request scoped to',
    "one tenant cannot address another's items. A cross-tenant index (a timer's due items) sorts by",
    '`<time>#<tenant>#<id>`. Nothing scans: every read below is a GetItem or a Query on a known partition.',
    '',
    'Each literal key segment is declared once, by one entity, in `shared/data/registry/`; repositories build',
    'their keys from it (`K.CONV`), so a segment that is not declared does not compile. To add a kind of item,',
    'declare it there with its key shapes and access patterns, then run `npm run data-model`.',
    '',
    '## Access patterns',
    '',
    '| Entity | Read | Index | Key condition |',
    '|---|---|---|---|',
    ...chart,
    '',
    ...entities.flatMap((e) => [...section(e), '']),
  ].join('\n');
