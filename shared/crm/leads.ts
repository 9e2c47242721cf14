import type { Tenant } from '../domain/auth/tenant';
import { Missing, Refused } from '../domain/refusal';
import { systemActivity } from '../domain/crm/activity';
import { editLead, moveLead, newLead, type Lead, type LeadChange, type LeadFields, type StageStay } from '../domain/crm/lead';
import { leadListSource, type LeadFilters } from '../domain/crm/lead-lists';
import { firstOpenStage, stageOf, type Pipeline, type Stage } from '../domain/crm/pipeline';
import { buildEnvelope, diff } from '../events/envelope';
import { objectId } from '../ids';
import { getLead, leadCreation, leadDeletion, leadUpdate, leftStay, stayDeletions, type StoredLead } from '../data/leads';
import { leadIdsOfCustomer, leadsPage, staysPage, type StageCounts } from '../data/leads-list';
import { outboxItem } from '../data/outbox';
import {
  getPipeline,
  pipelineLeadCount,
  pipelinesCounted,
  stageCounterWrites,
  stageLeadCount,
  type StoredPipeline,
} from '../data/pipelines';
import type { PageRequest } from '../data/query';
import { lostRace, retryOnConflict } from '../data/retry';
import { MAX_TRANSACTION_WRITES, type Write } from '../data/transact';
import type { Unit } from '../data/unit';
import { activityAdded } from './activities';

export const requireLead = async (tenant: Tenant, id: string): Promise<StoredLead> => {
  const stored = await getLead(tenant, id);
  if (!stored) throw new Missing('Lead');
  return stored;
};

const eventsOf = (tenant: Tenant, before: Lead, change: LeadChange, now: Date): Write[] =>
  change.events.map((e) => {
    const pick = (l: Lead) => Object.fromEntries(e.fields.map((f) => [f, l[f]]));
    return outboxItem(
      buildEnvelope(`crm.lead.${e.name}`, tenant, { lead: change.lead }, { changes: diff(pick(before), pick(change.lead)), now }),
    );
  });

/** A pipeline and one of its stages, named in a request body: unknown ones are refused. */
const resolveStage = async (
  tenant: Tenant,
  pipelineId: string,
  stageId: string | undefined,
): Promise<{ stored: StoredPipeline; pipeline: Pipeline; stage: Stage }> => {
  const stored = await getPipeline(tenant, pipelineId);
  if (!stored) throw new Refused('no_such_pipeline', 'No such pipeline in this workspace');
  const stage = stageId === undefined ? firstOpenStage(stored.pipeline) : stageOf(stored.pipeline, stageId);
  if (!stage) throw new Refused('no_such_stage', 'No such stage in this pipeline');
  return { stored, pipeline: stored.pipeline, stage };
};

/**
 * Whether each pipeline whose stage counts a lead's change moves keeps them on its counts item (else on one item
 * per stage): from the pipelines read already, the others read now (a lead leaving its pipeline, a delete, a new value).
 */
const countsLayout = async (tenant: Tenant, before: Lead | undefined, after: Lead | undefined, read: StoredPipeline[] = []) => {
  const layout = new Map(read.map((p) => [p.pipeline._id, p.countsItem]));
  for (const id of pipelinesCounted(before, after).filter((p) => !layout.has(p)))
    layout.set(id, (await getPipeline(tenant, id))?.countsItem ?? false);
  return (pipelineId: string) => layout.get(pipelineId) ?? false;
};

export interface NewLeadInput extends LeadFields {
  title: string;
  pipelineId: string;
  /** Default: the pipeline's first open stage. */
  stageId?: string;
}

/** Creates a lead in its stage (its first stay): the lead, its lists, its stage's counts and `crm.lead.created`, in one transaction. */
export const createLead = async (unit: Unit, tenant: Tenant, input: NewLeadInput, now: Date): Promise<Lead> => {
  const _id = objectId(now.getTime());
  return retryOnConflict(async () => {
    const { stored, pipeline, stage } = await resolveStage(tenant, input.pipelineId, input.stageId);
    const lead = newLead(input, pipeline, stage, _id, now);
    await unit.commit(
      [
        ...leadCreation(tenant, lead),
        ...stageCounterWrites(tenant, undefined, lead, { kind: stage.kind, countsItem: () => stored.countsItem }),
        outboxItem(buildEnvelope('crm.lead.created', tenant, { lead }, { now })),
      ],
      lostRace,
    );
    return lead;
  });
};

interface LeadStep {
  change: LeadChange;
  /** The kind of the lead's stage after the change, when it enters a stage. */
  kind?: Stage['kind'];
  /** The pipeline it enters, as read. */
  pipeline?: StoredPipeline;
  /** A move, whose `stage_change` activity the pipeline it enters counts (when that keeps a counts item). */
  move?: boolean;
  /** A write on its own that goes before the transaction (one a replay repeats unchanged). */
  before?: () => Promise<void>;
  extra?: Write[];
  set?: Record<string, unknown>;
}

/** Read, decide, write under the version read; lists, stage counters, link checks and events follow the change. */
const mutateLead = (
  unit: Unit,
  tenant: Tenant,
  id: string,
  decide: (stored: StoredLead) => Promise<LeadStep> | LeadStep,
  now: Date,
  also?: (lead: Lead) => Write[],
): Promise<Lead> =>
  retryOnConflict(async () => {
    const stored = await requireLead(tenant, id);
    const before = stored.lead;
    const step = await decide(stored);
    const after = step.change.lead;
    if (step.change.events.length === 0) return before;
    const countsItem = await countsLayout(tenant, before, after, step.pipeline ? [step.pipeline] : []);
    await step.before?.();
    await unit.commit(
      [
        ...leadUpdate(tenant, stored, after, step.set),
        ...stageCounterWrites(tenant, before, after, { kind: step.kind, countsItem, move: step.move }),
        ...eventsOf(tenant, before, step.change, now),
        ...(step.extra ?? []),
        ...(also?.(after) ?? []),
      ],
      lostRace,
    );
    return after;
  });

export const updateLead = (unit: Unit, tenant: Tenant, id: string, patch: LeadFields, now: Date): Promise<Lead> =>
  mutateLead(unit, tenant, id, ({ lead }) => ({ change: editLead(lead, patch, now) }), now);

/** Links a lead of customer `from` to customer `to` (a merge); a lead no longer on `from` is left as it is. */
const relinkLeadCustomer = (unit: Unit, tenant: Tenant, id: string, from: string, to: string, now: Date): Promise<Lead> =>
  mutateLead(
    unit,
    tenant,
    id,
    ({ lead }) => ({ change: lead.customerId === from ? editLead(lead, { customerId: to }, now) : { lead, events: [] } }),
    now,
  );

/** Clears a lead's link to customer `customerId` (an erasure), with `extra` in its transaction; a lead no longer on it is left as it is. */
export const unlinkLeadCustomer = (unit: Unit, tenant: Tenant, id: string, customerId: string, now: Date, extra: Write[]): Promise<Lead> =>
  mutateLead(
    unit,
    tenant,
    id,
    ({ lead }) => ({ change: lead.customerId === customerId ? editLead(lead, { customerId: null }, now) : { lead, events: [] }, extra }),
    now,
  );

const RELINK_BATCH = 25;

/** Links every lead of customer `from` to `to` (a merge), one lead per transaction (each with its `crm.lead.updated`); answers how many. */
export const relinkCustomerLeads = async (unit: Unit, tenant: Tenant, from: string, to: string, now: Date): Promise<number> => {
  let moved = 0;
  for (;;) {
    const ids = await leadIdsOfCustomer(tenant, from, RELINK_BATCH);
    if (ids.length === 0) return moved;
    for (const id of ids) {
      // A lead deleted since the page was read has left the list with its delete.
      moved += await relinkLeadCustomer(unit, tenant, id, from, to, now).then(
        () => 1,
        (error: unknown) => {
          if (error instanceof Missing) return 0;
          throw error;
        },
      );
    }
  }
};

export interface MoveInput {
  stageId: string;
  /** Only to move into another pipeline's stage; default: the lead's own pipeline. */
  pipelineId?: string;
  lostReason?: string;
}

/**
 * Moves a lead to another stage: writes the stay it leaves (on its own, first: leftStay), then moves its stage,
 * its lists and stage counts, and writes `crm.lead.stage_changed` (+ `won`/`lost`) and a `stage_change` activity
 * with its `crm.activity.added`, all in one transaction. The service behind `POST /crm/leads/{id}/move` and workflows,
 * whose `extra` writes (the step's effect record) join that transaction; a move to the lead's own stage writes nothing.
 */
export const moveLeadToStage = (
  unit: Unit,
  tenant: Tenant,
  id: string,
  input: MoveInput,
  now: Date,
  extra?: (lead: Lead) => Write[],
): Promise<Lead> =>
  mutateLead(
    unit,
    tenant,
    id,
    async (stored) => {
      const { lead, stays } = stored;
      const target = await resolveStage(tenant, input.pipelineId ?? lead.pipelineId, input.stageId);
      const { pipeline, stage } = target;
      const change = moveLead(lead, pipeline, stage, input.lostReason, now);
      const activity = systemActivity(
        'stage_change',
        { leadId: lead._id, customerId: lead.customerId },
        `Moved to ${stage.name}`,
        {
          fromPipelineId: lead.pipelineId,
          fromStageId: lead.stageId,
          toPipelineId: pipeline._id,
          toStageId: stage._id,
          lostReason: change.lead.lostReason,
        },
        objectId(now.getTime()),
        now,
      );
      // The activity is counted on the pipeline's counts item the move writes anyway, where the pipeline keeps one.
      const countedOnPipeline = target.stored.countsItem;
      return {
        change,
        kind: stage.kind,
        pipeline: target.stored,
        move: countedOnPipeline,
        set: { stays: stays + 1 },
        before: () => leftStay(tenant, stored),
        extra: activityAdded(tenant, activity, now, { counted: !countedOnPipeline }),
      };
    },
    now,
    extra,
  );

/**
 * Deletes a lead with its lists, stage counters, tag links and stage history, in one transaction
 * (conditional on the version and tag count read, so a racing move re-runs it with the stays it added).
 * Its activities stay on its customer's timeline.
 */
export const deleteLead = async (unit: Unit, tenant: Tenant, id: string, now: Date): Promise<Lead> => {
  const { lead, overflow } = await retryOnConflict(async () => {
    const stored = await requireLead(tenant, id);
    const countsItem = await countsLayout(tenant, stored.lead, undefined);
    const writes = [
      ...leadDeletion(tenant, stored, now),
      ...stageCounterWrites(tenant, stored.lead, undefined, { countsItem }),
      outboxItem(buildEnvelope('crm.lead.deleted', tenant, { lead: stored.lead }, { now })),
    ];
    const stays = await stayDeletions(tenant, id);
    const room = MAX_TRANSACTION_WRITES - writes.length;
    await unit.commit([...writes, ...stays.slice(0, room)], lostRace);
    return { lead: stored.lead, overflow: stays.slice(room) };
  });
  // Only a lead moved more often than one transaction holds: the stays left over, unreachable once the lead is gone.
  for (let i = 0; i < overflow.length; i += MAX_TRANSACTION_WRITES) {
    const chunk = overflow.slice(i, i + MAX_TRANSACTION_WRITES);
    await retryOnConflict(() => unit.commit(chunk));
  }
  return lead;
};

const stageCounts = (tenant: Tenant): StageCounts => ({
  stage: (pipelineId, stageId) => stageLeadCount(tenant, pipelineId, stageId),
  pipeline: (pipelineId, status) => pipelineLeadCount(tenant, pipelineId, status),
});

/** One page of the list a filter selects; a stage filter given with its pipeline must name one of its stages (refused otherwise). */
export const listLeads = async (tenant: Tenant, filters: LeadFilters, page: PageRequest) => {
  const source = leadListSource(filters);
  if (filters.pipelineId && filters.stageId) {
    const stored = await getPipeline(tenant, filters.pipelineId);
    if (stored && !stageOf(stored.pipeline, filters.stageId)) throw new Refused('stage_outside_pipeline', 'Not a stage of this pipeline');
    // The stage's count is kept under its pipeline: read there when the pipeline is known to hold it.
    if (stored) return leadsPage(tenant, source, page, stageCounts(tenant), filters.pipelineId);
  }
  return leadsPage(tenant, source, page, stageCounts(tenant));
};

/** A lead's stays, oldest first, with an exact total (the lead counts them). */
export const stageHistory = async (
  tenant: Tenant,
  id: string,
  page: PageRequest,
): Promise<{ history: StageStay[]; total: number; nextCursor?: string }> => {
  const stored = await requireLead(tenant, id);
  return { ...(await staysPage(tenant, stored, page)), total: stored.stays };
};
