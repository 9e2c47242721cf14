import * as z from 'zod';
import { ConflictError, ValidationError } from '../errors';
import { mergeAttributes, type Attributes } from '../contacts/customer';
import type { Money } from './money';
import type { Pipeline, Stage } from './pipeline';
import { built } from '../built';

export const LEAD_STATUSES = ['open', 'won', 'lost'] as const;
export const LeadStatus = /* @__PURE__ */ built(() => z.enum(LEAD_STATUSES));
export type LeadStatus = z.infer<typeof LeadStatus>;

export interface Lead {
  _id: string;
  title: string;
  pipelineId: string;
  stageId: string;
  /** Follows the kind of the lead's stage. */
  status: LeadStatus;
  value: Money | null;
  customerId: string | null;
  conversationId: string | null;
  /** A member id; a well-formed id until a members API exists. */
  assigneeId: string | null;
  source: string | null;
  /** A calendar date, YYYY-MM-DD. */
  expectedCloseDate: string | null;
  lostReason: string | null;
  tagIds: string[];
  attributes: Attributes;
  stageEnteredAt: string;
  /** When the lead entered its won or lost stage; null while open. */
  closedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

type LeadEvent = 'created' | 'updated' | 'deleted' | 'stage_changed' | 'assigned' | 'won' | 'lost';

/** A lead after a change and the events describing it, each with the fields its `changes` names. */
export interface LeadChange {
  lead: Lead;
  events: { name: LeadEvent; fields: (keyof Lead)[] }[];
}

export interface LeadFields {
  title?: string;
  value?: Money | null;
  customerId?: string | null;
  conversationId?: string | null;
  assigneeId?: string | null;
  source?: string | null;
  expectedCloseDate?: string | null;
  lostReason?: string | null;
  attributes?: Record<string, string | number | boolean | null>;
}

const closing = (stage: Stage, now: Date) => ({
  status: stage.kind,
  closedAt: stage.kind === 'open' ? null : now.toISOString(),
});

const checkLostReason = (stage: Stage, lostReason: string | null | undefined) => {
  if (lostReason && stage.kind !== 'lost')
    throw new ValidationError([{ path: 'lostReason', message: 'Only a lead in a lost stage has a lost reason' }]);
};

/** A new lead in `stage` (the pipeline's first open stage when none is named). */
export const newLead = (input: LeadFields & { title: string }, pipeline: Pipeline, stage: Stage, _id: string, now: Date): Lead => {
  checkLostReason(stage, input.lostReason);
  return {
    _id,
    title: input.title,
    pipelineId: pipeline._id,
    stageId: stage._id,
    ...closing(stage, now),
    value: input.value ?? null,
    customerId: input.customerId ?? null,
    conversationId: input.conversationId ?? null,
    assigneeId: input.assigneeId ?? null,
    source: input.source ?? null,
    expectedCloseDate: input.expectedCloseDate ?? null,
    lostReason: input.lostReason ?? null,
    tagIds: [],
    attributes: mergeAttributes({}, input.attributes),
    stageEnteredAt: now.toISOString(),
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };
};

/**
 * A PATCH: a new assignee emits `assigned`, any other changed field `updated`; nothing changed, nothing
 * emitted. Stage and pipeline change only by a move.
 */
export const editLead = (lead: Lead, patch: LeadFields, now: Date): LeadChange => {
  if (patch.lostReason && lead.status !== 'lost')
    throw new ValidationError([{ path: 'lostReason', message: 'Only a lost lead has a lost reason' }]);
  const { attributes, ...fields } = patch;
  const after: Lead = {
    ...lead,
    ...fields,
    ...(attributes !== undefined ? { attributes: mergeAttributes(lead.attributes, attributes) } : {}),
  };
  const changed = (Object.keys(patch) as (keyof LeadFields)[]).filter((k) => JSON.stringify(after[k]) !== JSON.stringify(lead[k]));
  if (changed.length === 0) return { lead, events: [] };
  const others = changed.filter((k) => k !== 'assigneeId');
  return {
    lead: { ...after, updatedAt: now.toISOString() },
    events: [
      ...(others.length > 0 ? [{ name: 'updated' as const, fields: others }] : []),
      ...(changed.includes('assigneeId') ? [{ name: 'assigned' as const, fields: ['assigneeId' as const] }] : []),
    ],
  };
};

/**
 * Moves a lead to `stage` (of its own pipeline or, when `pipeline` is another one, of that one). Entering a
 * won or lost stage sets `status` and `closedAt` and adds `won` or `lost`; leaving one reopens the lead.
 * Moving to the current stage is 409.
 */
export const moveLead = (lead: Lead, pipeline: Pipeline, stage: Stage, lostReason: string | undefined, now: Date): LeadChange => {
  if (stage._id === lead.stageId) throw new ConflictError('Lead is already in this stage', { stageId: stage._id });
  checkLostReason(stage, lostReason);
  const after: Lead = {
    ...lead,
    pipelineId: pipeline._id,
    stageId: stage._id,
    ...closing(stage, now),
    lostReason: stage.kind === 'lost' ? (lostReason ?? null) : null,
    stageEnteredAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };
  const fields = (['pipelineId', 'stageId', 'status', 'closedAt', 'lostReason', 'stageEnteredAt'] as const).filter(
    (k) => after[k] !== lead[k],
  );
  return {
    lead: after,
    events: [
      { name: 'stage_changed', fields: [...fields] },
      ...(stage.kind === 'won' || stage.kind === 'lost' ? [{ name: stage.kind, fields: ['status' as const, 'closedAt' as const] }] : []),
    ],
  };
};

/** A stay of a lead in a stage, as `stage-history` shows it. */
export interface StageStay {
  pipelineId: string;
  stageId: string;
  enteredAt: string;
  exitedAt: string | null;
  durationSeconds: number | null;
}

export const stayView = (stay: Omit<StageStay, 'durationSeconds'>): StageStay => ({
  ...stay,
  durationSeconds: stay.exitedAt === null ? null : Math.round((Date.parse(stay.exitedAt) - Date.parse(stay.enteredAt)) / 1000),
});
