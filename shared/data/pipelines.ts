import type { Tenant } from '../domain/auth/tenant';
import { Refused } from '../domain/refusal';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import { byCreation } from '../domain/lists';
import type { Lead } from '../domain/crm/lead';
import type { Pipeline, Stage, StageTotals } from '../domain/crm/pipeline';
import { tenantPk } from './keys';
import { membershipWrites, readItems, readList } from './lists';
import { collect, queryAll, type PageRequest } from './query';
import { createItem, deleteItem, updateItem, type Write } from './transact';
import { versionedUpdate } from './versioned';
import { K } from './registry/registry';

/**
 * Pipelines: pk=<tenant>#PIPELINE#<id> sk=PIPELINE, stages embedded and versioned. In the same partition,
 * one item per stage, sk=STAGE#<stageId>: the stage's live counters (`n` leads, `amount:<currency>` summed
 * values) and its `kind`, written in the same transaction as every lead change touching the stage, so the
 * summary is O(stages) and exact. A stage item exists exactly as long as its stage.
 * List: <tenant>#PIPELINELIST#all, oldest first.
 */
const pipelineKey = (tenant: Tenant, id: string) => ({ pk: tenantPk(tenant, K.PIPELINE, id), sk: K.PIPELINE });
export const stageKey = (tenant: Tenant, pipelineId: string, stageId: string) => ({
  pk: tenantPk(tenant, K.PIPELINE, pipelineId),
  sk: `${K.STAGE}#${stageId}`,
});

/** The count attribute of a stage item; values are `amount:<currency>`. */
export const STAGE_COUNT = 'n';
export const amountAttribute = (currency: string) => `amount:${currency}`;

export interface StoredPipeline {
  pipeline: Pipeline;
  version: number;
}

const fromItem = (item: Record<string, unknown>): Pipeline => ({
  _id: item._id as string,
  name: item.name as string,
  stages: item.stages as Stage[],
  createdAt: item.createdAt as string,
  updatedAt: item.updatedAt as string,
});

const stageItem = (tenant: Tenant, pipelineId: string, stage: Stage) => ({
  ...stageKey(tenant, pipelineId, stage._id),
  type: 'STAGE',
  kind: stage.kind,
  [STAGE_COUNT]: 0,
});

export const getPipeline = async (tenant: Tenant, id: string): Promise<StoredPipeline | undefined> => {
  const { Item } = await dynamo().send(
    new GetCommand({ TableName: config().TABLE_NAME, Key: pipelineKey(tenant, id), ConsistentRead: true }),
  );
  return Item ? { pipeline: fromItem(Item), version: Item.version as number } : undefined;
};

const lists = (p: Pipeline) => byCreation(['all'], p);

const holdsLeads = () => new Refused('stage_holds_leads', 'The stage still holds leads; move or delete them first');
const emptyStage = { condition: '#n = :zero', names: { '#n': STAGE_COUNT }, values: { ':zero': 0 }, onFail: holdsLeads };

/** The writes that store a new pipeline: its item, one item per stage and its list membership. */
export const pipelineCreation = (tenant: Tenant, pipeline: Pipeline): Write[] => [
  createItem({ ...pipelineKey(tenant, pipeline._id), type: 'PIPELINE', version: 1, ...pipeline }),
  ...pipeline.stages.map((s) => createItem(stageItem(tenant, pipeline._id, s))),
  ...membershipWrites(tenant, 'pipeline', pipeline._id, [], lists(pipeline)),
];

/** Stores `after` over the version read. */
export const pipelineUpdate = (tenant: Tenant, stored: StoredPipeline, after: Pipeline): Write =>
  versionedUpdate(pipelineKey(tenant, stored.pipeline._id), stored.version, stored.pipeline, after);

/** The item of a stage added to a pipeline, with its counters at zero. */
export const stageCreation = (tenant: Tenant, pipelineId: string, stage: Stage): Write => createItem(stageItem(tenant, pipelineId, stage));

/** A stage's new kind, refused (409) while the stage holds leads: their status was decided from the old one. */
export const stageKindChange = (tenant: Tenant, pipelineId: string, stageId: string, kind: Stage['kind']): Write =>
  updateItem(stageKey(tenant, pipelineId, stageId), 'SET kind = :kind', { ...emptyStage, values: { ...emptyStage.values, ':kind': kind } });

/** Deletes a stage's item, refused (409) while the stage holds leads. */
export const stageDeletion = (tenant: Tenant, pipelineId: string, stageId: string): Write =>
  deleteItem(stageKey(tenant, pipelineId, stageId), emptyStage);

/** Deletes the pipeline as read, its stage items (each refused while it holds leads) and its list membership. */
export const pipelineDeletion = (tenant: Tenant, { pipeline, version }: StoredPipeline): Write[] => [
  deleteItem(pipelineKey(tenant, pipeline._id), { condition: '#v = :v', names: { '#v': 'version' }, values: { ':v': version } }),
  ...pipeline.stages.map((s) => stageDeletion(tenant, pipeline._id, s._id)),
  ...membershipWrites(tenant, 'pipeline', pipeline._id, lists(pipeline), []),
];

/** What a lead adds to its stage's counters (negated when it leaves). */
const stageDeltas = (lead: Lead, sign: 1 | -1): Record<string, number> => ({
  [STAGE_COUNT]: sign,
  ...(lead.value ? { [amountAttribute(lead.value.currency)]: sign * lead.value.amount } : {}),
});

/**
 * The stage counters a lead's change moves (`before` or `after` absent for a create or delete), one write per
 * stage. Entering a stage is conditional on the stage still existing with `kind`, the kind the lead's status
 * was decided from; a failure re-runs the change.
 */
export const stageCounterWrites = (tenant: Tenant, before: Lead | undefined, after: Lead | undefined, kind?: Stage['kind']): Write[] => {
  const byStage = new Map<string, { pipelineId: string; stageId: string; deltas: Record<string, number>; entering: boolean }>();
  for (const [lead, sign] of [
    [before, -1],
    [after, 1],
  ] as const) {
    if (!lead) continue;
    const at = byStage.get(lead.stageId) ?? { pipelineId: lead.pipelineId, stageId: lead.stageId, deltas: {}, entering: false };
    for (const [k, d] of Object.entries(stageDeltas(lead, sign))) at.deltas[k] = (at.deltas[k] ?? 0) + d;
    at.entering ||= sign === 1 && lead.stageId !== before?.stageId;
    byStage.set(lead.stageId, at);
  }
  return [...byStage.values()].flatMap(({ pipelineId, stageId, deltas, entering }) => {
    const entries = Object.entries(deltas).filter(([, d]) => d !== 0);
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
  });
};

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

const totalsOf = (item: Record<string, unknown> | undefined): StageTotals => {
  const amounts = Object.fromEntries(
    Object.entries(item ?? {})
      .filter(([k]) => k.startsWith('amount:'))
      .map(([k, v]) => [k.slice('amount:'.length), v as number]),
  );
  return { count: (item?.[STAGE_COUNT] as number | undefined) ?? 0, amounts };
};

/** How many leads the stage holds, read consistently from its item; undefined when the pipeline has no such stage. */
export const stageLeadCount = async (tenant: Tenant, pipelineId: string, stageId: string): Promise<number | undefined> => {
  const { Item } = await dynamo().send(
    new GetCommand({
      TableName: config().TABLE_NAME,
      Key: stageKey(tenant, pipelineId, stageId),
      ProjectionExpression: '#n',
      ExpressionAttributeNames: { '#n': STAGE_COUNT },
      ConsistentRead: true,
    }),
  );
  return Item && totalsOf(Item).count;
};

/** How many leads the pipeline's stages hold, or those of `kind` only (a lead's status is its stage's kind): O(stages). */
export const pipelineLeadCount = async (tenant: Tenant, pipelineId: string, kind?: Stage['kind']): Promise<number> => {
  const items = await collect(queryAll({ pk: pipelineKey(tenant, pipelineId).pk, skPrefix: `${K.STAGE}#`, consistent: true }));
  return items.filter((i) => kind === undefined || i.kind === kind).reduce((sum, i) => sum + totalsOf(i).count, 0);
};

/** The live counters of each stage of the pipeline, read consistently (O(stages)); a stage never counted has zero. */
export const stageTotals = async (tenant: Tenant, pipeline: Pipeline): Promise<Map<string, StageTotals>> => {
  const items = await collect(queryAll({ pk: pipelineKey(tenant, pipeline._id).pk, skPrefix: `${K.STAGE}#`, consistent: true }));
  const bySk = new Map(items.map((i) => [i.sk as string, i]));
  return new Map(pipeline.stages.map((s) => [s._id, totalsOf(bySk.get(stageKey(tenant, pipeline._id, s._id).sk))]));
};
