import { ValidationError } from '../errors';
import { UNASSIGNED } from '../lists';
import { LEAD_STATUSES, type Lead, type LeadStatus } from './lead';

/** The list of a customer's leads. */
export const leadsOfCustomer = (customerId: string): string => `customer:${customerId}`;

/**
 * Every lead is a member of a few named lists, one per filter the API offers, each with an exact total
 * (leadListTotal) written in the same transaction: a filtered page costs O(limit) and its total O(1).
 */
export const leadListsOf = (l: Pick<Lead, 'pipelineId' | 'stageId' | 'status' | 'assigneeId' | 'customerId'>): string[] => {
  const assignee = l.assigneeId ?? UNASSIGNED;
  return [
    'all',
    `pipeline:${l.pipelineId}`,
    `pipeline:${l.pipelineId}:status:${l.status}`,
    `stage:${l.stageId}`,
    `status:${l.status}`,
    `assignee:${assignee}`,
    `assignee:${assignee}:status:${l.status}`,
    ...(l.customerId ? [leadsOfCustomer(l.customerId)] : []),
  ];
};

/**
 * The lists that are the union of one list per status (a lead has one status at a time): `all` and an
 * assignee's. Their total is the sum of those lists' counters, so they keep no counter of their own.
 */
export const leadStatusParts = (list: string): string[] | undefined => {
  if (list === 'all') return LEAD_STATUSES.map((s) => `status:${s}`);
  const assignee = /^(assignee:[^:]+)$/.exec(list)?.[1];
  return assignee ? LEAD_STATUSES.map((s) => `${assignee}:status:${s}`) : undefined;
};

/**
 * The lists read as the merge of one list per status (a lead has one status at a time), newest first, so they
 * keep no membership items: `all`, an assignee's and a pipeline's.
 */
export const mergedLeadParts = (list: string): string[] | undefined => {
  const pipeline = /^(pipeline:[^:]+)$/.exec(list)?.[1];
  return pipeline ? LEAD_STATUSES.map((s) => `${pipeline}:status:${s}`) : leadStatusParts(list);
};

/** The stage a stage list is of (a lead's stage list is the lead's index entry). */
const stageOfList = (list: string): string | undefined => /^stage:(.+)$/.exec(list)?.[1];

/** The lists a lead is stored in as membership items: not the merged ones, nor its stage's (its index entry). */
export const storedLeadLists = (l: Parameters<typeof leadListsOf>[0]): string[] =>
  leadListsOf(l).filter((list) => !mergedLeadParts(list) && !stageOfList(list));

/**
 * Where a lead list's exact total is read. A stage's, and a pipeline's (of one status: its stages of that
 * kind), are its stages' lead counts, which every lead change writes anyway (the stage items), so these lists
 * keep no counter; a stage's count is kept under its pipeline (`pipelineId`, when the filter names it). The
 * unions of one list per status sum their parts' counters; every other list has its own.
 */
export type LeadListTotal =
  | { stage: string; pipelineId?: string }
  | { pipeline: string; status?: LeadStatus }
  | { parts: string[] }
  | { counter: true };

export const leadListTotal = (list: string, pipelineId?: string): LeadListTotal => {
  const stage = /^stage:(.+)$/.exec(list)?.[1];
  if (stage) return { stage, ...(pipelineId ? { pipelineId } : {}) };
  const pipeline = /^pipeline:([^:]+)(?::status:(.+))?$/.exec(list);
  if (pipeline) return { pipeline: pipeline[1]!, ...(pipeline[2] ? { status: pipeline[2] as LeadStatus } : {}) };
  const parts = leadStatusParts(list);
  return parts ? { parts } : { counter: true };
};

/** A lead list that keeps no counter of its own (see leadListTotal). */
export const uncountedLeadList = (list: string): boolean => !('counter' in leadListTotal(list));

export interface LeadFilters {
  pipelineId?: string;
  stageId?: string;
  status?: LeadStatus;
  /** A member id, or `none` for unassigned leads. */
  assigneeId?: string;
  customerId?: string;
  tagId?: string;
}

export type LeadListSource = { list: string } | { tagId: string };

const PAIRS: [keyof LeadFilters, keyof LeadFilters][] = [
  ['pipelineId', 'status'],
  ['assigneeId', 'status'],
  ['pipelineId', 'stageId'],
];

/**
 * The one list a filter combination reads. Only pipeline + status, assignee + status and pipeline + stage
 * combine (the stage names its pipeline; the caller checks that it belongs to it); any other combination
 * has no exact O(1) total, so it is refused.
 */
export const leadListSource = (f: LeadFilters): LeadListSource => {
  const given = (['pipelineId', 'stageId', 'status', 'assigneeId', 'customerId', 'tagId'] as const).filter((k) => f[k] !== undefined);
  const pair = given.length === 2 && PAIRS.some(([a, b]) => given.includes(a) && given.includes(b));
  if (given.length > 1 && !pair) {
    const message = 'Filters cannot be combined, except pipelineId with status or stageId, and assigneeId with status';
    throw new ValidationError(given.slice(1).map((path) => ({ path, message })));
  }
  if (f.stageId) return { list: `stage:${f.stageId}` };
  if (f.pipelineId) return { list: f.status ? `pipeline:${f.pipelineId}:status:${f.status}` : `pipeline:${f.pipelineId}` };
  if (f.assigneeId) return { list: f.status ? `assignee:${f.assigneeId}:status:${f.status}` : `assignee:${f.assigneeId}` };
  if (f.status) return { list: `status:${f.status}` };
  if (f.customerId) return { list: leadsOfCustomer(f.customerId) };
  if (f.tagId) return { tagId: f.tagId };
  return { list: 'all' };
};
