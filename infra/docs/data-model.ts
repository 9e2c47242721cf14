import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Entity, KeyAttribute } from '../../shared/data/registry/define';
import { entities } from '../../shared/data/registry/entities';
import { tableSchema } from '../../shared/data/table';

const ATTRIBUTES: readonly KeyAttribute[] = ['pk', 'sk', 'gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk', 'gsi3pk', 'gsi3sk', 'gsi4pk', 'gsi4sk'];
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

const list = (values: readonly string[], none: string) => (values.length ? values.map((v) => `\`${v}\``).join(', ') : none);

const section = (e: Entity) => [
  `## ${e.name}`,
  '',
  e.about,
  '',
  `Declares: ${list(e.prefixes, 'no segment of its own')}. Item types: ${list(e.itemTypes, 'none (no `type` attribute)')}.`,
  `Personal data: ${list(e.personal, 'none')}.`,
  '',
  ...keyTable(e),
  ...(e.tradeOff ? ['', `Trade-off: ${e.tradeOff}`] : []),
];

const chart = entities.flatMap((e) =>
  e.patterns.map((p) => `| [${e.name}](#${anchor(e)}) | ${p.read} | ${p.index ? `\`${p.index}\`` : 'table'} | ${code(p.by)} |`),
);

/** Hand-written sections on what an area's writes cost and why (`write-paths/<area>.md`), after the registry's. */
const WRITE_PATHS = resolve(import.meta.dirname, 'write-paths');
const writePaths = () =>
  readdirSync(WRITE_PATHS)
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => readFileSync(resolve(WRITE_PATHS, f), 'utf8').trimEnd());

/** The data-model page, rendered from the key registry (`shared/data/registry/`) and the write-path sections. */
export const dataModelPage = (): string =>
  [
    '# Data model',
    '',
    '<!-- Generated from shared/data/registry/ by `npm run data-model`; do not edit by hand. -->',
    '',
    `Parley keeps every item in one DynamoDB table: partition key \`${tableSchema.partitionKey}\`, sort key \`${tableSchema.sortKey}\`,`,
    `TTL attribute \`${tableSchema.ttlAttribute}\`, and the global secondary indexes ${tableSchema.indexes.map((i) => `\`${i.name}\` (\`${i.partitionKey}\`, \`${i.sortKey}\`${i.projection === 'ALL' ? '' : ', keys only'})`).join(', ')}.`,
    'Keys are segments joined by `#`. `<tenant>` stands for `WS#<tenant>`: the workspace id, followed by `~test` in',
    '[test mode](../guide/test-mode.md), so every workspace-owned key starts with its tenant and a request scoped to',
    "one tenant cannot address another's items. A cross-tenant index (a timer's due items) sorts by",
    '`<time>#<tenant>#<id>`. Nothing scans: every read below is a GetItem or a Query on a known partition.',
    '',
    'Each kind of item is declared once, in `shared/data/registry/`: its key shapes, access patterns, the `type`',
    'values its items carry and the attributes that hold personal data. Each is declared with `declare`',
    '(`registry/define.ts`), which also takes its key templates and item schema: its repository builds every key',
    '(`tag.key({ tenant, id })`) and reads every item (`tag.parse(item)`) from them, so a key is spelled in one place',
    'and no item is read by a cast. A unit',
    'test fails when the code writes an item type no entity declares. To add a kind of item, `declare` it there,',
    'then run `npm run data-model`. Why the house keeps its own registry rather than ElectroDB or dynamodb-toolbox:',
    '[the decision and its figures](entity-library.md).',
    '',
    '## Personal data',
    '',
    'What erasing a person must clear or delete: the entities whose items hold personal data, and in which',
    'attributes (a key attribute when the key itself holds it, so the item is deleted).',
    '',
    '| Entity | Attributes |',
    '|---|---|',
    ...entities.filter((e) => e.personal.length).map((e) => `| [${e.name}](#${anchor(e)}) | ${list(e.personal, '')} |`),
    '',
    '## Access patterns',
    '',
    '| Entity | Read | Index | Key condition |',
    '|---|---|---|---|',
    ...chart,
    '',
    ...entities.flatMap((e) => [...section(e), '']),
    ...writePaths().flatMap((p) => [p, '']),
  ].join('\n');
