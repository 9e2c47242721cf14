import type { Tenant } from '../domain/auth/tenant';
import { Missing, Refused } from '../domain/refusal';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import { objectId } from '../ids';
import { buildEnvelope, diff } from '../events/envelope';
import { byCreation } from '../domain/lists';
import {
  addStage,
  editStage,
  newPipeline,
  removeStage,
  rename,
  reorderStages,
  stageOf,
  stageSummary,
  type Pipeline,
  type Stage,
  type StageEdit,
  type StageInput,
  type StageTotals,
} from '../domain/crm/pipeline';
import { tenantPk } from './keys';
import { membershipWrites, readItems, readList } from './lists';
import { outboxItem } from './outbox';
import { collect, queryAll, type PageRequest } from './query';
import { lostRace, retryOnConflict } from './retry';
import { createItem, deleteItem, transact, updateItem, type Write } from './transact';
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

export const requirePipeline = async (tenant: Tenant, id: string): Promise<StoredPipeline> => {
  const stored = await getPipeline(tenant, id);
  if (!stored) throw new Missing('Pipeline');
  return stored;
};

const lists = (p: Pipeline) => byCreation(['all'], p);
const event = (type: 'created' | 'updated' | 'deleted', tenant: Tenant, pipeline: Pipeline, now: Date, before?: Pipeline) =>
  outboxItem(
    buildEnvelope(
      `crm.pipeline.${type}`,
      tenant,
      { pipeline },
      {
        now,
        changes: before ? diff({ name: before.name, stages: before.stages }, { name: pipeline.name, stages: pipeline.stages }) : undefined,
      },
    ),
  );

export const createPipeline = async (tenant: Tenant, input: { name: string; stages?: StageInput[] }, now: Date): Promise<Pipeline> => {
  const pipeline = newPipeline(input, { _id: objectId(now.getTime()), newId: () => objectId(now.getTime()) }, now);
  await retryOnConflict(() =>
    transact(
      [
        createItem({ ...pipelineKey(tenant, pipeline._id), type: 'PIPELINE', version: 1, ...pipeline }),
        ...pipeline.stages.map((s) => createItem(stageItem(tenant, pipeline._id, s))),
        ...membershipWrites(tenant, 'pipeline', pipeline._id, [], lists(pipeline)),
        event('created', tenant, pipeline, now),
      ],
      lostRace,
    ),
  );
  return pipeline;
};

/** What a pipeline change writes besides the pipeline item: its stage items. */
interface PipelineStep {
  pipeline: Pipeline;
  extra?: Write[];
}

/** Read, decide, write under the version read (re-run on a lost race); a step that changes nothing writes nothing. */
/** The pipeline before and after the change `decide` makes, written in one versioned transaction. */
const mutated = (tenant: Tenant, id: string, decide: (p: Pipeline) => PipelineStep, now: Date) =>
  retryOnConflict(async () => {
    const { pipeline: before, version } = await requirePipeline(tenant, id);
    const { pipeline: after, extra = [] } = decide(before);
    if (after === before && extra.length === 0) return { before, after };
    await transact(
      [versionedUpdate(pipelineKey(tenant, id), version, before, after), ...extra, event('updated', tenant, after, now, before)],
      lostRace,
    );
    return { before, after };
  });

const mutatePipeline = async (tenant: Tenant, id: string, decide: (p: Pipeline) => PipelineStep, now: Date): Promise<Pipeline> =>
  (await mutated(tenant, id, decide, now)).after;

const requireStage = (p: Pipeline, stageId: string): Stage => {
  const stage = stageOf(p, stageId);
  if (!stage) throw new Missing('Stage');
  return stage;
};

const holdsLeads = () => new Refused('stage_holds_leads', 'The stage still holds leads; move or delete them first');
const emptyStage = { condition: '#n = :zero', names: { '#n': STAGE_COUNT }, values: { ':zero': 0 }, onFail: holdsLeads };

export const renamePipeline = (tenant: Tenant, id: string, name: string, now: Date) =>
  mutatePipeline(tenant, id, (p) => ({ pipeline: rename(p, name, now) }), now);

export const createStage = (tenant: Tenant, id: string, input: StageInput & { position?: number }, now: Date): Promise<Pipeline> => {
  const stageId = objectId(now.getTime());
  return mutatePipeline(
    tenant,
    id,
    (p) => {
      const after = addStage(p, input, stageId, now, input.position);
      return { pipeline: after, extra: [createItem(stageItem(tenant, id, stageOf(after, stageId)!))] };
    },
    now,
  );
};

/** A kind change also changes what its leads' status means, so it is refused (409) while the stage holds leads. */
export const updateStage = (tenant: Tenant, id: string, stageId: string, edit: StageEdit, now: Date): Promise<Pipeline> =>
  mutatePipeline(
    tenant,
    id,
    (p) => {
      const stage = requireStage(p, stageId);
      const after = editStage(p, stage, edit, now);
      const kind = stageOf(after, stageId)!.kind;
      const extra =
        kind === stage.kind
          ? []
          : [
              updateItem(stageKey(tenant, id, stageId), 'SET kind = :kind', {
                ...emptyStage,
                values: { ...emptyStage.values, ':kind': kind },
              }),
            ];
      return { pipeline: after, extra };
    },
    now,
  );

/** Deletes an empty stage; answers it as it was. */
export const deleteStage = async (tenant: Tenant, id: string, stageId: string, now: Date): Promise<Stage> => {
  const { before } = await mutated(
    tenant,
    id,
    (p) => {
      const stage = requireStage(p, stageId);
      return { pipeline: removeStage(p, stage, now), extra: [deleteItem(stageKey(tenant, id, stageId), emptyStage)] };
    },
    now,
  );
  return requireStage(before, stageId);
};

export const reorderPipelineStages = (tenant: Tenant, id: string, stageIds: string[], now: Date) =>
  mutatePipeline(tenant, id, (p) => ({ pipeline: reorderStages(p, stageIds, now) }), now);

/** Deletes a pipeline whose stages are all empty (409 otherwise), with its stage items, in one transaction. */
export const deletePipeline = (tenant: Tenant, id: string, now: Date): Promise<Pipeline> =>
  retryOnConflict(async () => {
    const { pipeline, version } = await requirePipeline(tenant, id);
    await transact(
      [
        deleteItem(pipelineKey(tenant, id), { condition: '#v = :v', names: { '#v': 'version' }, values: { ':v': version } }),
        ...pipeline.stages.map((s) => deleteItem(stageKey(tenant, id, s._id), emptyStage)),
        ...membershipWrites(tenant, 'pipeline', id, lists(pipeline), []),
        event('deleted', tenant, pipeline, now),
      ],
      lostRace,
    );
    return pipeline;
  });

export const listPipelines = async (tenant: Tenant, page: PageRequest) => {
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

/** Per stage: count, summed value and probability-weighted value per currency, from the stage counters (O(stages)). */
export const pipelineSummary = async (tenant: Tenant, id: string) => {
  const { pipeline } = await requirePipeline(tenant, id);
  const items = await collect(queryAll({ pk: pipelineKey(tenant, id).pk, skPrefix: `${K.STAGE}#`, consistent: true }));
  const bySk = new Map(items.map((i) => [i.sk as string, i]));
  const stages = pipeline.stages.map((s) => stageSummary(s, totalsOf(bySk.get(stageKey(tenant, id, s._id).sk))));
  const totals = new Map<string, { amount: number; weightedAmount: number }>();
  for (const v of stages.flatMap((s) => s.values)) {
    const t = totals.get(v.currency) ?? { amount: 0, weightedAmount: 0 };
    totals.set(v.currency, { amount: t.amount + v.amount, weightedAmount: t.weightedAmount + v.weightedAmount });
  }
  return {
    pipelineId: id,
    stages,
    count: stages.reduce((n, s) => n + s.count, 0),
    values: [...totals].sort(([a], [b]) => a.localeCompare(b)).map(([currency, t]) => ({ currency, ...t })),
  };
};
