import type { Tenant } from '../domain/auth/tenant';
import { leadListTotal, leadsOfCustomer, mergedLeadParts, type LeadListSource, type LeadListTotal } from '../domain/crm/lead-lists';
import { stayView, type Lead, type LeadStatus, type StageStay } from '../domain/crm/lead';
import { leadKey } from './entity-keys';
import { fromItem, getStay, leadCounting, leadStagePk, stayKey, stayOfItem, stayPrefix, type StoredLead } from './leads';
import { countParts, listPk, memberId, mergedListPage, readItems, readList, readTotal, type ListPart, type ListReadOptions } from './lists';
import { cursorAfter, queryPage, type PageRequest } from './query';
import { taggedPage } from './tag-links';

/** The stages' lead counts (the pipelines' repository), which a stage's and a pipeline's totals are. */
export interface StageCounts {
  /** Undefined when the pipeline has no such stage. */
  stage: (pipelineId: string, stageId: string) => Promise<number | undefined>;
  pipeline: (pipelineId: string, status?: LeadStatus) => Promise<number>;
}

/** A stage's list: the leads' index entries, and the list kept before them (leads not changed since). */
const stageParts = (tenant: Tenant, stageId: string): ListPart[] => [
  { list: `stage:${stageId}` },
  { index: 'gsi1', pk: leadStagePk(tenant, stageId) },
];

/**
 * A stage's lead count, kept under its pipeline: the one named with it, else that of a lead on the page (it
 * holds the stage if the stage's item is there, stage ids being unique). Without either (an empty page, or a
 * lead moved meanwhile into another pipeline), the stage's list is counted.
 */
const stageTotal = async (tenant: Tenant, counts: StageCounts, stageId: string, pipelineId: string | undefined, leads: Lead[]) => {
  const pipeline = pipelineId ?? leads[0]?.pipelineId;
  const kept = pipeline === undefined ? undefined : await counts.stage(pipeline, stageId);
  return kept ?? countParts(tenant, 'lead', stageParts(tenant, stageId));
};

/** How a lead list's total is read (leadListTotal), but a stage's, which may need the page's leads. */
const totalOf = (counts: StageCounts, how: Exclude<LeadListTotal, { stage: string }>): ListReadOptions => {
  if ('pipeline' in how) return { total: () => counts.pipeline(how.pipeline, how.status) };
  return { ...('parts' in how ? { parts: how.parts } : {}), shared: leadCounting.shared };
};

const leadsOf = (tenant: Tenant, ids: string[]) =>
  readItems(
    ids.map((id) => leadKey(tenant, id)),
    fromItem,
  );

/**
 * One page of a lead list or of the leads carrying a tag: O(limit) reads with a cursor, and an exact total in
 * O(1) (a stage's, after the page when its pipeline is not named). `pipelineId`: the pipeline a stage filter names.
 * A stage's list merges its index entries with the list kept before them; `all`, a pipeline's and an assignee's
 * merge their status lists (mergedLeadParts). The leads are read consistently: one an index entry still names
 * after it left the stage is not shown.
 */
export const leadsPage = async (tenant: Tenant, source: LeadListSource, page: PageRequest, counts: StageCounts, pipelineId?: string) => {
  if ('tagId' in source) {
    const { ids, total, nextCursor } = await taggedPage(tenant, source.tagId, 'lead', page);
    return { leads: await leadsOf(tenant, ids), total, nextCursor };
  }
  const how = leadListTotal(source.list, pipelineId);
  if ('stage' in how) {
    const { ids, nextCursor } = await mergedListPage(tenant, 'lead', source.list, stageParts(tenant, how.stage), page);
    const leads = (await leadsOf(tenant, ids)).filter((l) => l.stageId === how.stage);
    return { leads, total: await stageTotal(tenant, counts, how.stage, how.pipelineId, leads), nextCursor };
  }
  const merged = mergedLeadParts(source.list);
  const { ids, total, nextCursor } = merged
    ? await mergedRead(tenant, source.list, merged, page, totalOf(counts, how))
    : await readList(tenant, 'lead', source.list, page, { newestFirst: true, ...totalOf(counts, how) });
  return { leads: await leadsOf(tenant, ids), total, nextCursor };
};

const mergedRead = async (tenant: Tenant, list: string, parts: string[], page: PageRequest, total: ListReadOptions) => {
  const [result, count] = await Promise.all([
    mergedListPage(
      tenant,
      'lead',
      list,
      parts.map((p) => ({ list: p })),
      page,
    ),
    readTotal(tenant, 'lead', list, total),
  ]);
  return { ...result, total: count };
};

/**
 * One page of the lead's stays, oldest first: the items of the stays it left (1 to `stays - 1`; an item at or
 * past `stays` is a move's that never committed, or a lead's stored before, and is not read), then its current
 * stay, its own stage and `stageEnteredAt`. A stay ends when the next begins: its `exitedAt` is the next one's
 * `enteredAt` (a stay written before that rule holds its own), so the last on a page reads the next stay.
 */
export const staysPage = async (
  tenant: Tenant,
  { lead, stays }: StoredLead,
  page: PageRequest,
): Promise<{ history: StageStay[]; nextCursor?: string }> => {
  const { pk, skPrefix } = stayPrefix(tenant, lead._id);
  // Up to and including the last stay left (the bound past its key, so a cursor on it is inside the range).
  const left = { pk, skBetween: [skPrefix, `${stayKey(tenant, lead._id, stays - 1).sk}~`] as const };
  const result = await queryPage(left, page);
  const items = result.items.map(stayOfItem);
  const current = stayView({ pipelineId: lead.pipelineId, stageId: lead.stageId, enteredAt: lead.stageEnteredAt, exitedAt: null });
  const last = items.at(-1);
  const full = items.length === page.limit;
  // The current stay ends the list, on the page that reaches the end of the stays left (a page by number past it is empty).
  const past = (page.page ?? 1) > 1 && ((page.page ?? 1) - 1) * page.limit > stays - 1;
  const withCurrent = !result.nextCursor && !full && !past;
  const nextEntered = async (n: number) => (n + 1 < stays ? (await getStay(tenant, lead._id, n + 1))?.enteredAt : current.enteredAt);
  const lastExit = last && !last.exitedAt ? await nextEntered(last.n) : undefined;
  const history = items.map(({ pipelineId, stageId, enteredAt, exitedAt }, i) =>
    stayView({ pipelineId, stageId, enteredAt, exitedAt: exitedAt ?? items[i + 1]?.enteredAt ?? lastExit ?? null }),
  );
  // A page the stays left fill ends before the current stay, which the next one holds.
  return {
    history: withCurrent ? [...history, current] : history,
    nextCursor: result.nextCursor ?? (full ? cursorAfter(left, result.items.at(-1)!) : undefined),
  };
};

/** The ids of (at most `limit` of) the customer's leads, from the customer's lead list. */
export const leadIdsOfCustomer = async (tenant: Tenant, customerId: string, limit: number): Promise<string[]> => {
  const { items } = await queryPage({ pk: listPk(tenant, 'lead', leadsOfCustomer(customerId)) }, { limit });
  return items.map(memberId);
};
