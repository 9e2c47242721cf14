import type { Tenant } from '../domain/auth/tenant';
import { Missing } from '../domain/refusal';
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
} from '../domain/crm/pipeline';
import { buildEnvelope, diff } from '../events/envelope';
import { objectId } from '../ids';
import { outboxItem } from '../data/outbox';
import {
  getPipeline,
  pipelineCreation,
  pipelineDeletion,
  pipelineMoves,
  pipelinesPage,
  pipelineUpdate,
  stageCreation,
  stageDeletion,
  stageKindChange,
  stageTotals,
  type StoredPipeline,
} from '../data/pipelines';
import type { PageRequest } from '../data/query';
import { lostRace, retryOnConflict } from '../data/retry';
import type { Write } from '../data/transact';
import type { Unit } from '../data/unit';
import { timelineCounted } from '../data/activities';

export const requirePipeline = async (tenant: Tenant, id: string): Promise<StoredPipeline> => {
  const stored = await getPipeline(tenant, id);
  if (!stored) throw new Missing('Pipeline');
  return stored;
};

const pipelineEvent = (type: 'created' | 'updated' | 'deleted', tenant: Tenant, pipeline: Pipeline, now: Date, before?: Pipeline) =>
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

export const createPipeline = async (
  unit: Unit,
  tenant: Tenant,
  input: { name: string; stages?: StageInput[] },
  now: Date,
): Promise<Pipeline> => {
  const pipeline = newPipeline(input, { _id: objectId(now.getTime()), newId: () => objectId(now.getTime()) }, now);
  await retryOnConflict(() =>
    unit.commit([...pipelineCreation(tenant, pipeline), pipelineEvent('created', tenant, pipeline, now)], lostRace),
  );
  return pipeline;
};

/** A pipeline change and what it writes besides the pipeline item: its stage items. */
interface PipelineStep {
  pipeline: Pipeline;
  extra?: Write[];
}

/**
 * Read, decide, write under the version read (re-run on a lost race): the pipeline before and after the
 * change `decide` makes, with its event; a step that changes nothing writes nothing.
 */
const mutated = (unit: Unit, tenant: Tenant, id: string, decide: (p: Pipeline, stored: StoredPipeline) => PipelineStep, now: Date) =>
  retryOnConflict(async () => {
    const stored = await requirePipeline(tenant, id);
    const before = stored.pipeline;
    const { pipeline: after, extra = [] } = decide(before, stored);
    if (after === before && extra.length === 0) return { before, after };
    await unit.commit([pipelineUpdate(tenant, stored, after), ...extra, pipelineEvent('updated', tenant, after, now, before)], lostRace);
    return { before, after };
  });

const mutatePipeline = async (
  unit: Unit,
  tenant: Tenant,
  id: string,
  decide: (p: Pipeline, stored: StoredPipeline) => PipelineStep,
  now: Date,
): Promise<Pipeline> => (await mutated(unit, tenant, id, decide, now)).after;

const requireStage = (p: Pipeline, stageId: string): Stage => {
  const stage = stageOf(p, stageId);
  if (!stage) throw new Missing('Stage');
  return stage;
};

/** A patch without a name changes nothing: it answers the pipeline as it is. */
export const updatePipeline = async (unit: Unit, tenant: Tenant, id: string, patch: { name?: string }, now: Date) =>
  patch.name === undefined
    ? (await requirePipeline(tenant, id)).pipeline
    : mutatePipeline(unit, tenant, id, (p) => ({ pipeline: rename(p, patch.name!, now) }), now);

export const createStage = (
  unit: Unit,
  tenant: Tenant,
  id: string,
  input: StageInput & { position?: number },
  now: Date,
): Promise<Pipeline> => {
  const stageId = objectId(now.getTime());
  return mutatePipeline(
    unit,
    tenant,
    id,
    (p, stored) => {
      const after = addStage(p, input, stageId, now, input.position);
      return { pipeline: after, extra: [stageCreation(tenant, stored, stageOf(after, stageId)!)] };
    },
    now,
  );
};

/** A kind change also changes what its leads' status means, so it is refused (409) while the stage holds leads. */
export const updateStage = (unit: Unit, tenant: Tenant, id: string, stageId: string, edit: StageEdit, now: Date): Promise<Pipeline> =>
  mutatePipeline(
    unit,
    tenant,
    id,
    (p, stored) => {
      const stage = requireStage(p, stageId);
      const after = editStage(p, stage, edit, now);
      const kind = stageOf(after, stageId)!.kind;
      return { pipeline: after, extra: kind === stage.kind ? [] : [stageKindChange(tenant, stored, stageId, kind)] };
    },
    now,
  );

/** Deletes an empty stage; answers it as it was. */
export const deleteStage = async (unit: Unit, tenant: Tenant, id: string, stageId: string, now: Date): Promise<Stage> => {
  const { before } = await mutated(
    unit,
    tenant,
    id,
    (p, stored) => ({ pipeline: removeStage(p, requireStage(p, stageId), now), extra: [stageDeletion(tenant, stored, stageId)] }),
    now,
  );
  return requireStage(before, stageId);
};

export const reorderPipelineStages = (unit: Unit, tenant: Tenant, id: string, stageIds: string[], now: Date) =>
  mutatePipeline(unit, tenant, id, (p) => ({ pipeline: reorderStages(p, stageIds, now) }), now);

/**
 * Deletes a pipeline whose stages are all empty (409 otherwise), with its stages' counts, in one transaction; the
 * moves' activities its counts item counted are handed to the workspace timeline's counter.
 */
export const deletePipeline = (unit: Unit, tenant: Tenant, id: string, now: Date): Promise<Pipeline> =>
  retryOnConflict(async () => {
    const stored = await requirePipeline(tenant, id);
    const moves = await pipelineMoves(tenant, id);
    await unit.commit(
      [
        ...pipelineDeletion(tenant, stored, moves),
        ...timelineCounted(tenant, moves),
        pipelineEvent('deleted', tenant, stored.pipeline, now),
      ],
      lostRace,
    );
    return stored.pipeline;
  });

export const listPipelines = (tenant: Tenant, page: PageRequest) => pipelinesPage(tenant, page);

/** Per stage: count, summed value and probability-weighted value per currency, from the stage counters (O(stages)). */
export const pipelineSummary = async (tenant: Tenant, id: string) => {
  const { pipeline } = await requirePipeline(tenant, id);
  const totals = await stageTotals(tenant, pipeline);
  const stages = pipeline.stages.map((s) => stageSummary(s, totals.get(s._id)!));
  const byCurrency = new Map<string, { amount: number; weightedAmount: number }>();
  for (const v of stages.flatMap((s) => s.values)) {
    const t = byCurrency.get(v.currency) ?? { amount: 0, weightedAmount: 0 };
    byCurrency.set(v.currency, { amount: t.amount + v.amount, weightedAmount: t.weightedAmount + v.weightedAmount });
  }
  return {
    pipelineId: id,
    stages,
    count: stages.reduce((n, s) => n + s.count, 0),
    values: [...byCurrency].sort(([a], [b]) => a.localeCompare(b)).map(([currency, t]) => ({ currency, ...t })),
  };
};
