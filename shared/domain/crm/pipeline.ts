import * as z from 'zod';
import { ConflictError, ValidationError } from '../errors';
import { isStorableNumber } from '../free-form';
import { built } from '../built';

export const STAGE_KINDS = ['open', 'won', 'lost'] as const;
export const StageKind = /* @__PURE__ */ built(() => z.enum(STAGE_KINDS));
export type StageKind = z.infer<typeof StageKind>;

/** Stages per pipeline: deleting a pipeline checks every stage's counter in one 100-item transaction. */
export const MAX_STAGES = 30;

export interface Stage {
  _id: string;
  name: string;
  kind: StageKind;
  /** The chance a lead in this stage is won, 0–1: the forecast weighs each stage's value by it. */
  probability: number;
  position: number;
}

export interface Pipeline {
  _id: string;
  name: string;
  stages: Stage[];
  createdAt: string;
  updatedAt: string;
}

const StageName = /* @__PURE__ */ built(() => z.string().trim().min(1).max(100));
/** 0–1, and a number DynamoDB can store exactly (no denormals below 1e-130). */
export const Probability = /* @__PURE__ */ built(() => z.number().min(0).max(1).refine(isStorableNumber, 'Must be 0 or at least 1e-130'));

export const StageInput = /* @__PURE__ */ built(() =>
  z.strictObject({ name: StageName, kind: StageKind.default('open'), probability: Probability.optional() }),
);
export type StageInput = z.input<typeof StageInput>;

export const StageEdit = /* @__PURE__ */ built(() =>
  z.strictObject({ name: StageName.optional(), kind: StageKind.optional(), probability: Probability.optional() }),
);
export type StageEdit = z.infer<typeof StageEdit>;

const DEFAULT_PROBABILITY: Record<StageKind, number> = { open: 0.5, won: 1, lost: 0 };

/** What a pipeline created without stages gets. */
const DEFAULT_STAGES: StageInput[] = [
  { name: 'New', probability: 0.1 },
  { name: 'Qualified', probability: 0.3 },
  { name: 'Proposal', probability: 0.6 },
  { name: 'Won', kind: 'won' },
  { name: 'Lost', kind: 'lost' },
];

const withPositions = (stages: Omit<Stage, 'position'>[]): Stage[] => stages.map((s, position) => ({ ...s, position }));

const toStage = (input: StageInput, _id: string): Omit<Stage, 'position'> => {
  const kind = input.kind ?? 'open';
  return { _id, name: input.name, kind, probability: input.probability ?? DEFAULT_PROBABILITY[kind] };
};

/** A pipeline's stage rules: at least one open stage, exactly one won and one lost, unique names, at most MAX_STAGES. */
const problemsOf = (stages: readonly Omit<Stage, 'position'>[]): string | undefined => {
  const count = (kind: StageKind) => stages.filter((s) => s.kind === kind).length;
  if (count('open') < 1) return 'A pipeline needs at least one open stage';
  if (count('won') !== 1) return 'A pipeline has exactly one won stage';
  if (count('lost') !== 1) return 'A pipeline has exactly one lost stage';
  const names = stages.map((s) => s.name.toLowerCase());
  if (new Set(names).size !== names.length) return 'Stage names must be unique in a pipeline (ignoring case)';
  if (stages.length > MAX_STAGES) return `A pipeline has at most ${MAX_STAGES} stages`;
  return undefined;
};

/**
 * A new pipeline. Without stages it gets DEFAULT_STAGES; a missing open, won or lost stage is added
 * with a default (open first, won and lost last). Breaking a rule otherwise is 422 on `stages`.
 */
export const newPipeline = (
  input: { name: string; stages?: StageInput[] },
  ids: { _id: string; newId: () => string },
  now: Date,
): Pipeline => {
  const given = (input.stages?.length ? input.stages : DEFAULT_STAGES).map((s) => toStage(s, ids.newId()));
  const missing = (kind: StageKind, name: string) => (given.some((s) => s.kind === kind) ? [] : [toStage({ name, kind }, ids.newId())]);
  const stages = [...missing('open', 'New'), ...given, ...missing('won', 'Won'), ...missing('lost', 'Lost')];
  const problem = problemsOf(stages);
  if (problem) throw new ValidationError([{ path: 'stages', message: problem }]);
  return { _id: ids._id, name: input.name, stages: withPositions(stages), createdAt: now.toISOString(), updatedAt: now.toISOString() };
};

export const stageOf = (p: Pipeline, stageId: string): Stage | undefined => p.stages.find((s) => s._id === stageId);

/** Where a lead goes when no stage is named: the first open stage. */
export const firstOpenStage = (p: Pipeline): Stage => p.stages.find((s) => s.kind === 'open')!;

const changed = (p: Pipeline, stages: Omit<Stage, 'position'>[], now: Date): Pipeline => {
  const problem = problemsOf(stages);
  if (problem) throw new ConflictError(problem);
  return { ...p, stages: withPositions(stages), updatedAt: now.toISOString() };
};

export const rename = (p: Pipeline, name: string, now: Date): Pipeline =>
  name === p.name ? p : { ...p, name, updatedAt: now.toISOString() };

/** Adds a stage at `position` (default: before the won and lost stages). A second won or lost stage is 409. */
export const addStage = (p: Pipeline, input: StageInput, id: string, now: Date, position?: number): Pipeline => {
  const stages = [...p.stages];
  const at = position ?? stages.findIndex((s) => s.kind !== 'open');
  stages.splice(at < 0 ? stages.length : Math.min(at, stages.length), 0, { ...toStage(input, id), position: 0 });
  return changed(p, stages, now);
};

/** Edits a stage; a kind change that breaks the stage rules is 409 (the repository also refuses it for a stage holding leads). */
export const editStage = (p: Pipeline, stage: Stage, edit: StageEdit, now: Date): Pipeline => {
  const after = { ...stage, ...edit };
  if (after.name === stage.name && after.kind === stage.kind && after.probability === stage.probability) return p;
  return changed(
    p,
    p.stages.map((s) => (s._id === stage._id ? after : s)),
    now,
  );
};

/** Removes a stage; removing the won or lost stage, or the last open one, is 409. */
export const removeStage = (p: Pipeline, stage: Stage, now: Date): Pipeline =>
  changed(
    p,
    p.stages.filter((s) => s._id !== stage._id),
    now,
  );

/** Puts the stages in the given order; `stageIds` must name each stage exactly once (422 otherwise). */
export const reorderStages = (p: Pipeline, stageIds: readonly string[], now: Date): Pipeline => {
  const byId = new Map(p.stages.map((s) => [s._id, s]));
  const errors = stageIds.flatMap((id, i) =>
    byId.has(id) && stageIds.indexOf(id) === i
      ? []
      : [{ path: `stageIds[${i}]`, message: byId.has(id) ? 'Named twice' : 'No such stage in this pipeline' }],
  );
  if (errors.length === 0 && stageIds.length !== p.stages.length)
    errors.push({ path: 'stageIds', message: 'Must name every stage of the pipeline once' });
  if (errors.length) throw new ValidationError(errors);
  if (stageIds.every((id, i) => p.stages[i]!._id === id)) return p;
  return changed(
    p,
    stageIds.map((id) => byId.get(id)!),
    now,
  );
};

export interface StageTotals {
  count: number;
  /** Summed lead values per currency, in minor units. */
  amounts: Record<string, number>;
}

/** The summary of one stage: its count, summed value and probability-weighted value (the forecast), per currency. */
export const stageSummary = (stage: Stage, totals: StageTotals) => ({
  stageId: stage._id,
  name: stage.name,
  kind: stage.kind,
  probability: stage.probability,
  count: totals.count,
  values: Object.entries(totals.amounts)
    .filter(([, amount]) => amount !== 0)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([currency, amount]) => ({ currency, amount, weightedAmount: Math.round(amount * stage.probability) })),
});
