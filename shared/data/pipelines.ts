import type { Tenant } from '../domain/auth/tenant';
import { Refused } from '../domain/refusal';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import { byCreation } from '../domain/lists';
import type { Lead } from '../domain/crm/lead';
import { StageKind, type Pipeline, type Stage, type StageTotals } from '../domain/crm/pipeline';
import { membershipWrites, readItems, readList } from './lists';
import { collect, queryAll, type PageRequest } from './query';
import { createItem, deleteItem, updateItem, type Write } from './transact';
import { versionedUpdate } from './versioned';
import { pipeline as pipelineEntity, pipelineCounts, stageCounts } from './registry/crm';
import * as z from 'zod';

/**
 * Pipelines: pk=<tenant>#PIPELINE#<id> sk=PIPELINE, stages embedded and versioned. List: <tenant>#PIPELINELIST#all,
 * oldest first. Its stages' live counts, written in the same transaction as every lead change touching them (so
 * the summary is O(1) and exact), are kept in one of two layouts, which the pipeline item names (`countsItem`):
 * - one item per pipeline (pipelines created since 2026-11): pk=<tenant>#PIPELINECOUNTS sk=<pipeline id>, with
 *   per stage its kind `k:<stage id>`, its lead count `n:<stage id>` and its summed values `a:<stage id>` (a map
 *   currency → amount), and `moves`, how many `stage_change` activities moves into the pipeline wrote (the
 *   workspace's timeline counts them here, not on its counter). A stage is on it exactly as long as the stage is;
 *   the item, as long as the pipeline (its deletion hands `moves` to the timeline's counter).
 * - one item per stage, in the pipeline's partition, sk=STAGE#<stage id> (`n`, `amount:<currency>`, `kind`): the
 *   pipelines created before, which keep it.
 */
const pipelineKey = (tenant: Tenant, id: string) => pipelineEntity.key({ tenant, id });
const stageKey = (tenant: Tenant, pipelineId: string, stageId: string) => stageCounts.key({ tenant, pipelineId, stageId });
const countsKey = (tenant: Tenant, pipelineId: string) => pipelineCounts.key({ tenant, pipelineId });

/** The attributes of a stage on its pipeline's counts item. */
const kindOf = (stageId: string) => `k:${stageId}`;
const countOf = (stageId: string) => `n:${stageId}`;
const amountsOf = (stageId: string) => `a:${stageId}`;
const MOVES = 'moves';

/** The attributes of a stage item (pipelines created before the counts item). */
const STAGE_COUNT = 'n';
const amountAttribute = (currency: string) => `amount:${currency}`;

export interface StoredPipeline {
  pipeline: Pipeline;
  version: number;
  /** Whether its stages' counts are on its counts item (else on one item per stage). */
  countsItem: boolean;
}

const parse = (item: Record<string, unknown>) => pipelineEntity.parse(item);
const fromItem = (item: Record<string, unknown>): Pipeline => {
  const { version: _v, countsItem: _c, ...pipeline } = parse(item);
  return pipeline;
};

const stageItem = (tenant: Tenant, pipelineId: string, stage: Stage) => ({
  ...stageKey(tenant, pipelineId, stage._id),
  type: 'STAGE',
  kind: stage.kind,
  [STAGE_COUNT]: 0,
});

/** A stage's attributes on a new counts item, or set on one by its creation. */
const stageAttributes = (stage: Pick<Stage, '_id' | 'kind'>) => ({
  [kindOf(stage._id)]: stage.kind,
  [countOf(stage._id)]: 0,
  [amountsOf(stage._id)]: {},
});

export const getPipeline = async (tenant: Tenant, id: string): Promise<StoredPipeline | undefined> => {
  const { Item } = await dynamo().send(
    new GetCommand({ TableName: config().TABLE_NAME, Key: pipelineKey(tenant, id), ConsistentRead: true }),
  );
  if (!Item) return undefined;
  const { version, countsItem, ...pipeline } = parse(Item);
  return { pipeline, version, countsItem: countsItem === true };
};

const lists = (p: Pipeline) => byCreation(['all'], p);

const holdsLeads = () => new Refused('stage_holds_leads', 'The stage still holds leads; move or delete them first');
const emptyStage = { condition: '#n = :zero', names: { '#n': STAGE_COUNT }, values: { ':zero': 0 }, onFail: holdsLeads };
const emptyOnItem = (stageId: string) => ({ ...emptyStage, names: { '#n': countOf(stageId) } });

/** The writes that store a new pipeline: its item, its counts item and its list membership. */
export const pipelineCreation = (tenant: Tenant, pipeline: Pipeline): Write[] => [
  createItem({ ...pipelineKey(tenant, pipeline._id), type: 'PIPELINE', version: 1, countsItem: true, ...pipeline }),
  createItem({
    ...countsKey(tenant, pipeline._id),
    type: 'PIPELINE_COUNTS',
    [MOVES]: 0,
    ...Object.assign({}, ...pipeline.stages.map(stageAttributes)),
  }),
  ...membershipWrites(tenant, 'pipeline', pipeline._id, [], lists(pipeline)),
];

/** Stores `after` over the version read. */
export const pipelineUpdate = (tenant: Tenant, stored: StoredPipeline, after: Pipeline): Write =>
  versionedUpdate(pipelineKey(tenant, stored.pipeline._id), stored.version, stored.pipeline, after);

/** A stage added to a pipeline, its counts at zero. */
export const stageCreation = (tenant: Tenant, stored: StoredPipeline, stage: Stage): Write => {
  const pipelineId = stored.pipeline._id;
  if (!stored.countsItem) return createItem(stageItem(tenant, pipelineId, stage));
  const attributes = Object.entries(stageAttributes(stage));
  return updateItem(countsKey(tenant, pipelineId), `SET ${attributes.map((_, i) => `#s${i} = :s${i}`).join(', ')}`, {
    names: Object.fromEntries(attributes.map(([k], i) => [`#s${i}`, k])),
    values: Object.fromEntries(attributes.map(([, v], i) => [`:s${i}`, v])),
    condition: 'attribute_exists(pk)',
  });
};

/** A stage's new kind, refused (409) while the stage holds leads: their status was decided from the old one. */
export const stageKindChange = (tenant: Tenant, stored: StoredPipeline, stageId: string, kind: Stage['kind']): Write =>
  stored.countsItem
    ? updateItem(countsKey(tenant, stored.pipeline._id), 'SET #k = :kind', {
        ...emptyOnItem(stageId),
        names: { '#n': countOf(stageId), '#k': kindOf(stageId) },
        values: { ':zero': 0, ':kind': kind },
      })
    : updateItem(stageKey(tenant, stored.pipeline._id, stageId), 'SET kind = :kind', {
        ...emptyStage,
        values: { ...emptyStage.values, ':kind': kind },
      });

/** Deletes a stage's counts, refused (409) while the stage holds leads. */
export const stageDeletion = (tenant: Tenant, stored: StoredPipeline, stageId: string): Write =>
  stored.countsItem
    ? updateItem(countsKey(tenant, stored.pipeline._id), 'REMOVE #n, #k, #a', {
        ...emptyOnItem(stageId),
        names: { '#n': countOf(stageId), '#k': kindOf(stageId), '#a': amountsOf(stageId) },
      })
    : deleteItem(stageKey(tenant, stored.pipeline._id, stageId), emptyStage);

/**
 * Deletes the pipeline as read, its stages' counts (refused while a stage holds leads) and its list membership.
 * `moves`: the `stage_change` activities its counts item counts, as read, which the caller hands on; the item's
 * deletion is conditional on them (a move meanwhile re-runs it).
 */
export const pipelineDeletion = (tenant: Tenant, { pipeline, version, countsItem }: StoredPipeline, moves: number): Write[] => [
  deleteItem(pipelineKey(tenant, pipeline._id), { condition: '#v = :v', names: { '#v': 'version' }, values: { ':v': version } }),
  ...(countsItem
    ? [
        deleteItem(countsKey(tenant, pipeline._id), {
          condition: [...pipeline.stages.map((_, i) => `#n${i} = :zero`), `#m = :m`].join(' AND '),
          names: { ...Object.fromEntries(pipeline.stages.map((s, i) => [`#n${i}`, countOf(s._id)])), '#m': MOVES },
          values: { ':zero': 0, ':m': moves },
          onFail: holdsLeads,
        }),
      ]
    : pipeline.stages.map((s) => deleteItem(stageKey(tenant, pipeline._id, s._id), emptyStage))),
  ...membershipWrites(tenant, 'pipeline', pipeline._id, lists(pipeline), []),
];

/** What a lead adds to its stage's counts (negated when it leaves): `n`, and its value under its currency. */
const stageDeltas = (lead: Lead, sign: 1 | -1): { n: number; amounts: Record<string, number> } => ({
  n: sign,
  amounts: lead.value ? { [lead.value.currency]: sign * lead.value.amount } : {},
});

interface StageChange {
  pipelineId: string;
  stageId: string;
  n: number;
  amounts: Record<string, number>;
  /** Entered by the lead: conditional on the stage still existing with the kind its status was decided from. */
  entering: boolean;
}

/** How a lead's change moves each stage's counts (`before` or `after` absent for a create or delete). */
const stageChanges = (before: Lead | undefined, after: Lead | undefined): StageChange[] => {
  const byStage = new Map<string, StageChange>();
  for (const [lead, sign] of [
    [before, -1],
    [after, 1],
  ] as const) {
    if (!lead) continue;
    const at = byStage.get(lead.stageId) ?? { pipelineId: lead.pipelineId, stageId: lead.stageId, n: 0, amounts: {}, entering: false };
    const deltas = stageDeltas(lead, sign);
    at.n += deltas.n;
    for (const [currency, d] of Object.entries(deltas.amounts)) at.amounts[currency] = (at.amounts[currency] ?? 0) + d;
    at.entering ||= sign === 1 && lead.stageId !== before?.stageId;
    byStage.set(lead.stageId, at);
  }
  return [...byStage.values()].map((c) => ({ ...c, amounts: Object.fromEntries(Object.entries(c.amounts).filter(([, d]) => d !== 0)) }));
};

/** The pipelines whose counts a lead's change moves: read them (countsItem) before writing it. */
export const pipelinesCounted = (before: Lead | undefined, after: Lead | undefined): string[] => [
  ...new Set(
    stageChanges(before, after)
      .filter((c) => c.n !== 0 || Object.keys(c.amounts).length > 0)
      .map((c) => c.pipelineId),
  ),
];

const legacyStageWrite = (tenant: Tenant, { pipelineId, stageId, n, amounts, entering }: StageChange, kind?: Stage['kind']): Write[] => {
  const entries = [...(n ? [[STAGE_COUNT, n] as const] : []), ...Object.entries(amounts).map(([c, d]) => [amountAttribute(c), d] as const)];
  if (entries.length === 0) return [];
  const names = Object.fromEntries(entries.map(([k], i) => [`#c${i}`, k]));
  const values: Record<string, unknown> = Object.fromEntries(entries.map(([, d], i) => [`:c${i}`, d]));
  if (entering) values[':kind'] = kind;
  return [
    updateItem(stageKey(tenant, pipelineId, stageId), `ADD ${entries.map((_, i) => `#c${i} :c${i}`).join(', ')}`, {
      names,
      values,
      condition: entering ? 'attribute_exists(pk) AND kind = :kind' : 'attribute_exists(pk)',
    }),
  ];
};

/** One update of a pipeline's counts item for all its stages' changes (and a move's activity, `moves`). */
const countsItemWrite = (tenant: Tenant, pipelineId: string, changes: StageChange[], moves: number, kind?: Stage['kind']): Write[] => {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const adds: string[] = [];
  const sets: string[] = [];
  const conditions: string[] = [];
  changes.forEach(({ stageId, n, amounts, entering }, i) => {
    names[`#k${i}`] = kindOf(stageId);
    conditions.push(entering ? `#k${i} = :kind` : `attribute_exists(#k${i})`);
    if (n) {
      names[`#n${i}`] = countOf(stageId);
      values[`:n${i}`] = n;
      adds.push(`#n${i} :n${i}`);
    }
    Object.entries(amounts).forEach(([currency, d], j) => {
      names[`#a${i}`] = amountsOf(stageId);
      names[`#c${i}_${j}`] = currency;
      values[`:c${i}_${j}`] = d;
      sets.push(`#a${i}.#c${i}_${j} = if_not_exists(#a${i}.#c${i}_${j}, :zero) + :c${i}_${j}`);
      values[':zero'] = 0;
    });
  });
  if (moves) {
    names['#m'] = MOVES;
    values[':m'] = moves;
    adds.push('#m :m');
  }
  if (adds.length === 0 && sets.length === 0) return [];
  if (conditions.some((c) => c.includes(':kind'))) values[':kind'] = kind;
  const update = [sets.length ? `SET ${sets.join(', ')}` : '', adds.length ? `ADD ${adds.join(', ')}` : ''].filter(Boolean).join(' ');
  return [
    updateItem(countsKey(tenant, pipelineId), update, { names, values, condition: conditions.join(' AND ') || 'attribute_exists(pk)' }),
  ];
};

/**
 * The stage counts a lead's change moves (`before` or `after` absent for a create or delete): on a pipeline's
 * counts item, one write for all its stages, else one per stage item. Entering a stage is conditional on the stage
 * still existing with `kind`, the kind the lead's status was decided from; a failure re-runs the change.
 * `countsItem`: whether a pipeline read keeps its counts item (pipelinesCounted names those to read). `move`: the
 * change is a move whose `stage_change` activity the target pipeline's counts item counts (when it has one).
 */
export const stageCounterWrites = (
  tenant: Tenant,
  before: Lead | undefined,
  after: Lead | undefined,
  { kind, countsItem, move = false }: { kind?: Stage['kind']; countsItem: (pipelineId: string) => boolean; move?: boolean },
): Write[] => {
  const changes = stageChanges(before, after).filter((c) => c.n !== 0 || Object.keys(c.amounts).length > 0);
  const pipelines = new Set(changes.map((c) => c.pipelineId));
  if (move && after) pipelines.add(after.pipelineId);
  return [...pipelines].flatMap((pipelineId) => {
    const mine = changes.filter((c) => c.pipelineId === pipelineId);
    if (!countsItem(pipelineId)) return mine.flatMap((c) => legacyStageWrite(tenant, c, kind));
    return countsItemWrite(tenant, pipelineId, mine, move && after?.pipelineId === pipelineId ? 1 : 0, kind);
  });
};

/** `n` leads worth `amounts` (per currency) added at once to a stage of a pipeline with a counts item: a bulk load. */
export const stageCountsAdded = (
  tenant: Tenant,
  pipelineId: string,
  stageId: string,
  n: number,
  amounts: Record<string, number>,
): Write[] => countsItemWrite(tenant, pipelineId, [{ pipelineId, stageId, n, amounts, entering: false }], 0);

export const pipelinesPage = async (tenant: Tenant, page: PageRequest) => {
  const { ids, total, nextCursor } = await readList(tenant, 'pipeline', 'all', page);
  return {
    pipelines: await readItems(
      ids.map((id) => pipelineKey(tenant, id)),
      fromItem,
    ),
    total,
    nextCursor,
  };
};

/** A stage's kind and totals, from its pipeline's counts item or its own stage item. */
interface StageRead {
  kind: Stage['kind'];
  totals: StageTotals;
}

/** A stage item's attributes, `n`, `kind` and `amount:<currency>`, as its declaration reads them. */
const fromStageItem = (item: Record<string, unknown>): StageRead => {
  const amounts = Object.entries(item).filter(([k]) => k.startsWith('amount:'));
  const {
    kind,
    n,
    amounts: read,
  } = stageCounts.parse({ ...item, amounts: Object.fromEntries(amounts.map(([k, v]) => [k.slice('amount:'.length), v])) });
  return { kind, totals: { count: n, amounts: read } };
};

/** A counts item's stage attributes (`k:`, `n:`, `a:` and the stage id), as its declaration reads them. */
const countsOf = (item: Record<string, unknown>) =>
  pipelineCounts.parse({ ...item, stages: Object.fromEntries(Object.entries(item).filter(([k]) => /^[kna]:/.test(k))) });

const fromCountsItem = (item: Record<string, unknown>): Map<string, StageRead> => {
  const { stages } = countsOf(item);
  const stage = z.object({ kind: StageKind, n: z.number().default(0), amounts: z.record(z.string(), z.number()).default({}) });
  return new Map(
    Object.keys(stages)
      .filter((k) => k.startsWith('k:'))
      .map((k) => {
        const stageId = k.slice(2);
        const read = stage.parse({ kind: stages[k], n: stages[countOf(stageId)], amounts: stages[amountsOf(stageId)] });
        return [stageId, { kind: read.kind, totals: { count: read.n, amounts: read.amounts } }];
      }),
  );
};

/** Every stage's kind and totals of the pipeline, read consistently: its counts item, or (made before) its stage items. */
const readStages = async (tenant: Tenant, pipelineId: string): Promise<Map<string, StageRead>> => {
  const { Item } = await dynamo().send(
    new GetCommand({ TableName: config().TABLE_NAME, Key: countsKey(tenant, pipelineId), ConsistentRead: true }),
  );
  if (Item) return fromCountsItem(Item);
  const items = await collect(
    queryAll({ pk: stageCounts.build('pk', { tenant, pipelineId }), skPrefix: stageCounts.prefix('sk', {}), consistent: true }),
  );
  return new Map(items.map((i) => [stageCounts.read('sk', i.sk).stageId, fromStageItem(i)]));
};

/** How many leads the stage holds; undefined when the pipeline has no such stage. */
export const stageLeadCount = async (tenant: Tenant, pipelineId: string, stageId: string): Promise<number | undefined> =>
  (await readStages(tenant, pipelineId)).get(stageId)?.totals.count;

/** How many leads the pipeline's stages hold, or those of `kind` only (a lead's status is its stage's kind): O(stages). */
export const pipelineLeadCount = async (tenant: Tenant, pipelineId: string, kind?: Stage['kind']): Promise<number> =>
  [...(await readStages(tenant, pipelineId)).values()]
    .filter((s) => kind === undefined || s.kind === kind)
    .reduce((sum, s) => sum + s.totals.count, 0);

/** The live counts of each stage of the pipeline, read consistently (O(stages)); a stage never counted has zero. */
export const stageTotals = async (tenant: Tenant, pipeline: Pipeline): Promise<Map<string, StageTotals>> => {
  const read = await readStages(tenant, pipeline._id);
  return new Map(pipeline.stages.map((s) => [s._id, read.get(s._id)?.totals ?? { count: 0, amounts: {} }]));
};

/** The `stage_change` activities one pipeline's counts item counts, read consistently (0 without one). */
export const pipelineMoves = async (tenant: Tenant, pipelineId: string): Promise<number> => {
  const { Item } = await dynamo().send(
    new GetCommand({
      TableName: config().TABLE_NAME,
      Key: countsKey(tenant, pipelineId),
      ConsistentRead: true,
      ProjectionExpression: MOVES,
    }),
  );
  return Item ? countsOf(Item).moves : 0;
};

/** The `stage_change` activities every pipeline's counts item counts: one Query of the workspace's counts items. */
export const movesCounted = async (tenant: Tenant): Promise<number> =>
  (await collect(queryAll({ pk: pipelineCounts.build('pk', { tenant }), consistent: true }))).reduce(
    (sum, i) => sum + countsOf(i).moves,
    0,
  );
