import type { Tenant } from '../domain/auth/tenant';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import { objectId } from '../ids';
import { buildEnvelope, diff } from '../events/envelope';
import { Refused, Missing } from '../domain/refusal';
import { systemActivity } from '../domain/crm/activity';
import { editLead, moveLead, newLead, type Lead, type LeadChange, type LeadFields } from '../domain/crm/lead';
import { leadListsOf, leadStatusParts } from '../domain/crm/lead-lists';
import { firstOpenStage, stageOf, type Pipeline, type Stage } from '../domain/crm/pipeline';
import { byCreation } from '../domain/lists';
import { activityWrites } from './activity-writes';
import { changedLinks, linkChecks } from './crm-links';
import { leadKey } from './entity-keys';
import { membershipItems, membershipWrites } from './lists';
import { outboxItem } from './outbox';
import { amountAttribute, getPipeline, STAGE_COUNT, stageKey } from './pipelines';
import { collect, queryAll } from './query';
import { lostRace, retryOnConflict } from './retry';
import { tagIdsOf, tagLinkWrites, unchangedSinceRead } from './tag-links';
import { createItem, deleteItem, MAX_TRANSACTION_WRITES, transact, updateItem, type Write } from './transact';
import { versionedUpdate } from './versioned';
import { K } from './registry/registry';
import { itemCodec } from './codec';
import { lead as leadView } from '../views/crm';

/**
 * Leads: pk=<tenant>#LEAD#<id> sk=LEAD (versioned; `stays` counts its stage stays). Its stage history is in
 * the same partition, one item per stay, sk=STAY#<n> (n = 1, 2, … zero-padded, oldest first). Lists
 * (leadListsOf) are <tenant>#LEADLIST#<list>, newest first; every change also keeps its stages' counters.
 */
const stayKey = (tenant: Tenant, leadId: string, n: number) => ({
  pk: leadKey(tenant, leadId).pk,
  sk: `${K.STAY}#${String(n).padStart(6, '0')}`,
});

export interface StoredLead {
  lead: Lead;
  version: number;
  /** How many stays the history holds; the last one is the current stage's. */
  stays: number;
}

const decode = itemCodec(leadView);
export const fromItem = (item: Record<string, unknown>): Lead =>
  decode({ ...item, attributes: item.attributes ?? {}, tagIds: tagIdsOf(item.tagIds) });

const toItem = (tenant: Tenant, lead: Lead) => {
  const { tagIds: _tags, ...fields } = lead;
  return { ...leadKey(tenant, lead._id), type: 'LEAD', version: 1, stays: 1, ...fields };
};

const stayItem = (tenant: Tenant, lead: Lead, n: number) => ({
  ...stayKey(tenant, lead._id, n),
  type: 'STAGE_STAY',
  pipelineId: lead.pipelineId,
  stageId: lead.stageId,
  enteredAt: lead.stageEnteredAt,
  exitedAt: null,
});

export const getLead = async (tenant: Tenant, id: string): Promise<StoredLead | undefined> => {
  const { Item } = await dynamo().send(new GetCommand({ TableName: config().TABLE_NAME, Key: leadKey(tenant, id), ConsistentRead: true }));
  return Item ? { lead: fromItem(Item), version: Item.version as number, stays: Item.stays as number } : undefined;
};

export const requireLead = async (tenant: Tenant, id: string): Promise<StoredLead> => {
  const stored = await getLead(tenant, id);
  if (!stored) throw new Missing('Lead');
  return stored;
};

const hasStatusParts = (list: string) => leadStatusParts(list) !== undefined;
const memberships = (lead: Lead) => byCreation(leadListsOf(lead), lead);

/** What a lead adds to its stage's counters (negated when it leaves). */
const stageDeltas = (lead: Lead, sign: 1 | -1): Record<string, number> => ({
  [STAGE_COUNT]: sign,
  ...(lead.value ? { [amountAttribute(lead.value.currency)]: sign * lead.value.amount } : {}),
});

/**
 * The stage counters a lead change moves, one write per stage. Entering a stage is conditional on the
 * stage still existing with the kind the lead's status was decided from; a failure re-runs the change.
 */
const stageWrites = (tenant: Tenant, before: Lead | undefined, after: Lead | undefined, kind?: Stage['kind']): Write[] => {
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
): Promise<{ pipeline: Pipeline; stage: Stage }> => {
  const stored = await getPipeline(tenant, pipelineId);
  if (!stored) throw new Refused('no_such_pipeline', 'No such pipeline in this workspace');
  const stage = stageId === undefined ? firstOpenStage(stored.pipeline) : stageOf(stored.pipeline, stageId);
  if (!stage) throw new Refused('no_such_stage', 'No such stage in this pipeline');
  return { pipeline: stored.pipeline, stage };
};

export interface NewLeadInput extends LeadFields {
  title: string;
  pipelineId: string;
  /** Default: the pipeline's first open stage. */
  stageId?: string;
}

/** The items a new lead consists of, and the lists whose counters it adds to (for bulk loads). */
export const createdLeadItems = (tenant: Tenant, lead: Lead) => ({
  items: [toItem(tenant, lead), stayItem(tenant, lead, 1), ...membershipItems(tenant, 'lead', lead._id, memberships(lead))],
  lists: leadListsOf(lead).filter((l) => !hasStatusParts(l)),
});

/** Creates a lead in its stage: the lead, its first stay, its lists, its stage's counters and `crm.lead.created`, in one transaction. */
export const createLead = async (tenant: Tenant, input: NewLeadInput, now: Date): Promise<Lead> => {
  const _id = objectId(now.getTime());
  return retryOnConflict(async () => {
    const { pipeline, stage } = await resolveStage(tenant, input.pipelineId, input.stageId);
    const lead = newLead(input, pipeline, stage, _id, now);
    await transact(
      [
        createItem(toItem(tenant, lead)),
        createItem(stayItem(tenant, lead, 1)),
        ...stageWrites(tenant, undefined, lead, stage.kind),
        ...membershipWrites(tenant, 'lead', lead._id, [], memberships(lead), hasStatusParts),
        ...linkChecks(tenant, lead),
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
  extra?: Write[];
  set?: Record<string, unknown>;
}

/** Read, decide, write under the version read; lists, stage counters, link checks and events follow the change. */
const mutateLead = (
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
    await transact(
      [
        versionedUpdate(leadKey(tenant, id), stored.version, before, after, { skip: ['tagIds'], set: step.set }),
        ...stageWrites(tenant, before, after, step.kind),
        ...membershipWrites(tenant, 'lead', id, memberships(before), memberships(after), hasStatusParts),
        ...linkChecks(tenant, changedLinks(before, after)),
        ...eventsOf(tenant, before, step.change, now),
        ...(step.extra ?? []),
        ...(also?.(after) ?? []),
      ],
      lostRace,
    );
    return after;
  });

export const updateLead = (tenant: Tenant, id: string, patch: LeadFields, now: Date): Promise<Lead> =>
  mutateLead(tenant, id, ({ lead }) => ({ change: editLead(lead, patch, now) }), now);

/** Links a lead of customer `from` to customer `to` (a merge); a lead no longer on `from` is left as it is. */
export const relinkLeadCustomer = (tenant: Tenant, id: string, from: string, to: string, now: Date): Promise<Lead> =>
  mutateLead(
    tenant,
    id,
    ({ lead }) => ({ change: lead.customerId === from ? editLead(lead, { customerId: to }, now) : { lead, events: [] } }),
    now,
  );

export interface MoveInput {
  stageId: string;
  /** Only to move into another pipeline's stage; default: the lead's own pipeline. */
  pipelineId?: string;
  lostReason?: string;
}

/**
 * Moves a lead to another stage: closes its current stay and opens the next, moves its lists and stage
 * counters, and writes `crm.lead.stage_changed` (+ `won`/`lost`) and a `stage_change` activity with its
 * `crm.activity.added`, all in one transaction. The service behind `POST /crm/leads/{id}/move` and workflows,
 * whose `extra` writes (the step's effect record) join that transaction; a move to the lead's own stage writes nothing.
 */
export const moveLeadToStage = (tenant: Tenant, id: string, input: MoveInput, now: Date, extra?: (lead: Lead) => Write[]): Promise<Lead> =>
  mutateLead(
    tenant,
    id,
    async ({ lead, stays }) => {
      const { pipeline, stage } = await resolveStage(tenant, input.pipelineId ?? lead.pipelineId, input.stageId);
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
      return {
        change,
        kind: stage.kind,
        set: { stays: stays + 1 },
        extra: [
          updateItem(stayKey(tenant, id, stays), 'SET exitedAt = :at', {
            values: { ':at': now.toISOString() },
            condition: 'attribute_exists(pk)',
          }),
          createItem(stayItem(tenant, change.lead, stays + 1)),
          ...activityWrites(tenant, activity, now),
        ],
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
export const deleteLead = async (tenant: Tenant, id: string, now: Date): Promise<Lead> => {
  const { lead, overflow } = await retryOnConflict(async () => {
    const { lead, version } = await requireLead(tenant, id);
    const tags = lead.tagIds;
    const writes = [
      deleteItem(leadKey(tenant, id), unchangedSinceRead(version, tags)),
      ...stageWrites(tenant, lead, undefined),
      ...membershipWrites(tenant, 'lead', id, memberships(lead), [], hasStatusParts),
      ...tagLinkWrites(tenant, 'lead', id, tags, -1, now),
      outboxItem(buildEnvelope('crm.lead.deleted', tenant, { lead }, { now })),
    ];
    const stays = (await collect(queryAll({ pk: leadKey(tenant, id).pk, skPrefix: `${K.STAY}#`, consistent: true }))).map((s) =>
      deleteItem({ pk: s.pk as string, sk: s.sk as string }),
    );
    const room = MAX_TRANSACTION_WRITES - writes.length;
    await transact([...writes, ...stays.slice(0, room)], lostRace);
    return { lead, overflow: stays.slice(room) };
  });
  // Only a lead moved more often than one transaction holds: the stays left over, unreachable once the lead is gone.
  for (let i = 0; i < overflow.length; i += MAX_TRANSACTION_WRITES) {
    const chunk = overflow.slice(i, i + MAX_TRANSACTION_WRITES);
    await retryOnConflict(() => transact(chunk));
  }
  return lead;
};
