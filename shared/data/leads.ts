import type { Tenant } from '../domain/auth/tenant';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import type { Lead } from '../domain/crm/lead';
import { leadListsOf, storedLeadLists, uncountedLeadList } from '../domain/crm/lead-lists';
import { byCreation, statusTotal } from '../domain/lists';
import { leadKey } from './entity-keys';
import { membershipItems, membershipWrites, type ListCounting } from './lists';
import { collect, queryAll } from './query';
import { changedLinks, linkChecks } from './references';
import { tagIdsOf, tagLinkWrites, unchangedSinceRead } from './tag-links';
import { createItem, deleteItem, type Write } from './transact';
import { versionedUpdate } from './versioned';
import { lead as leadEntity, stageStay } from './registry/crm';
import { storedKey } from './codec';

/**
 * Leads: pk=<tenant>#LEAD#<id> sk=LEAD (versioned; `stays` counts its stage stays, the current one included).
 * Its stage history is in the same partition, one item per stay it has left, sk=STAY#<n> (n = 1, 2, …
 * zero-padded, oldest first); the current stay is the lead's own stage and `stageEnteredAt`, and a stay's
 * `exitedAt` is the next one's `enteredAt` (stays written before 2026-11 may hold their own). A move writes the
 * stay it leaves on its own, before its transaction (leftStay): the item is the same whoever writes it, and one
 * at or past `stays` (a move that never committed, or a lead stored before, whose current stay has an item) is
 * not read. Its stage's list is its own index entry, gsi1pk=<tenant>#LEADSTAGE#<stage id> gsi1sk=<createdAt>#<id>;
 * the other lists it is stored in (storedLeadLists) are <tenant>#LEADLIST#<list>, newest first, and `all`, a
 * pipeline's and an assignee's are merged from their status lists on read (mergedLeadParts). A lead stored
 * before its index entry has a membership item in `stage:<id>` (and in the merged lists, no longer read): its
 * next change deletes the stage's one and gives it the entry. A stage's and a pipeline's totals are the stage
 * counts (stageCounterWrites), so those lists keep no counter (leadListTotal).
 */
export const stayKey = (tenant: Tenant, leadId: string, n: number) => stageStay.key({ tenant, leadId, n: String(n).padStart(6, '0') });

export interface StoredLead {
  lead: Lead;
  version: number;
  /** How many stays the history holds; the last one is the current stage's. */
  stays: number;
  /** Whether its stage list is its index entry (false for a lead stored before, still in the list `stage:<id>`). */
  indexed: boolean;
}

/** The lead as stored, with its version and stay count (its tag ids are a String Set, read into the array). */
const parse = (item: Record<string, unknown>) =>
  leadEntity.parse({ ...item, attributes: item.attributes ?? {}, tagIds: tagIdsOf(item.tagIds) });
export const fromItem = (item: Record<string, unknown>): Lead => {
  const { version: _v, stays: _s, ...lead } = parse(item);
  return lead;
};

/** The lead's entry in its stage's list. */
export const leadStagePk = (tenant: Tenant, stageId: string) => leadEntity.build('gsi1pk', { tenant, stageId });
const stageIndex = (tenant: Tenant, lead: Lead) =>
  leadEntity.index('gsi1', { tenant, stageId: lead.stageId, createdAt: lead.createdAt, id: lead._id });

const toItem = (tenant: Tenant, lead: Lead) => {
  const { tagIds: _tags, ...fields } = lead;
  return { ...leadKey(tenant, lead._id), type: 'LEAD', version: 1, stays: 1, ...fields, ...stageIndex(tenant, lead) };
};

/** The `n`-th stay, the one `lead` is in. */
const stayItem = (tenant: Tenant, lead: Lead, n: number) => ({
  ...stayKey(tenant, lead._id, n),
  type: 'STAGE_STAY',
  pipelineId: lead.pipelineId,
  stageId: lead.stageId,
  enteredAt: lead.stageEnteredAt,
});

export const getLead = async (tenant: Tenant, id: string): Promise<StoredLead | undefined> => {
  const { Item } = await dynamo().send(new GetCommand({ TableName: config().TABLE_NAME, Key: leadKey(tenant, id), ConsistentRead: true }));
  if (!Item) return undefined;
  const { version, stays, ...lead } = parse(Item);
  return { lead, version, stays, indexed: Item.gsi1pk !== undefined };
};

/** Status lists share one counter per owner (the workspace, an assignee); a stage's and a pipeline's keep none. */
export const leadCounting: ListCounting = { uncounted: uncountedLeadList, shared: statusTotal };
/** The membership items of a lead: those of its stored lists, and its stage's when it was stored before its index entry. */
const memberships = (lead: Lead, indexed = true) =>
  byCreation(indexed ? storedLeadLists(lead) : [...storedLeadLists(lead), `stage:${lead.stageId}`], lead);

/** The items a new lead consists of, and the lists whose counters it adds to (for bulk loads). */
export const createdLeadItems = (tenant: Tenant, lead: Lead) => ({
  items: [toItem(tenant, lead), ...membershipItems(tenant, 'lead', lead._id, memberships(lead))],
  lists: leadListsOf(lead).filter((l) => !uncountedLeadList(l)),
});

/** The writes that store a new lead (in its first stay): its item (with its stage's index entry), its lists and the checks of its links. */
export const leadCreation = (tenant: Tenant, lead: Lead): Write[] => [
  createItem(toItem(tenant, lead)),
  ...membershipWrites(tenant, 'lead', lead._id, [], memberships(lead), leadCounting),
  ...linkChecks(tenant, lead),
];

/**
 * The writes that store `after` over the version read: its stage's index entry and its lists follow it (a lead
 * stored before leaves `stage:<id>` for the entry) and the links it changes are checked.
 */
export const leadUpdate = (tenant: Tenant, stored: StoredLead, after: Lead, set?: Record<string, unknown>): Write[] => {
  const before = stored.lead;
  return [
    versionedUpdate(leadKey(tenant, before._id), stored.version, before, after, {
      skip: ['tagIds'],
      set: { ...set, ...(stored.indexed && before.stageId === after.stageId ? {} : stageIndex(tenant, after)) },
    }),
    ...membershipWrites(tenant, 'lead', before._id, memberships(before, stored.indexed), memberships(after), leadCounting),
    ...linkChecks(tenant, changedLinks(before, after)),
  ];
};

/**
 * Writes the stay the stored lead is about to leave (its `stays`-th, its current stage), on its own and before
 * the move's transaction, at half a transaction's units. It holds what every reader of that version would write
 * (a lead's stage and entry time change only by a move), so a move run again writes it again unchanged; while
 * the move has not committed, it is at `stays` and not read (staysPage). Its end is the next stay's start.
 */
export const leftStay = async (tenant: Tenant, { lead, stays }: StoredLead): Promise<void> => {
  await dynamo().send(new PutCommand({ TableName: config().TABLE_NAME, Item: stayItem(tenant, lead, stays) }));
};

/**
 * The writes that delete the lead as read, its lists and its tag links, conditional on the version and tag count
 * read (so a racing move or tagging re-runs it). Its stays go with `stayDeletions`.
 */
export const leadDeletion = (tenant: Tenant, { lead, version, indexed }: StoredLead, now: Date): Write[] => [
  deleteItem(leadKey(tenant, lead._id), unchangedSinceRead(version, lead.tagIds)),
  ...membershipWrites(tenant, 'lead', lead._id, memberships(lead, indexed), [], leadCounting),
  ...tagLinkWrites(tenant, 'lead', lead._id, lead.tagIds, -1, now),
];

/** A stay as stored: `exitedAt` only on those written before a stay's end was the next one's start. */
export type StoredStay = ReturnType<typeof stageStay.parse> & { n: number };
export const stayOfItem = (item: Record<string, unknown>): StoredStay => ({
  ...stageStay.parse(item),
  n: Number(stageStay.read('sk', item.sk).n),
});

/** The lead's `n`-th stay, as stored. */
export const getStay = async (tenant: Tenant, leadId: string, n: number): Promise<StoredStay | undefined> => {
  const { Item } = await dynamo().send(
    new GetCommand({ TableName: config().TABLE_NAME, Key: stayKey(tenant, leadId, n), ConsistentRead: true }),
  );
  return Item && stayOfItem(Item);
};

/** Where a lead's stays are, under `stageStay`'s sort key. */
export const stayPrefix = (tenant: Tenant, leadId: string) => ({
  pk: stageStay.build('pk', { tenant, leadId }),
  skPrefix: stageStay.prefix('sk', {}),
});

/** The deletes of every stay of the lead's history, read now. */
export const stayDeletions = async (tenant: Tenant, id: string): Promise<Write[]> =>
  (await collect(queryAll({ ...stayPrefix(tenant, id), consistent: true }))).map((s) => deleteItem(storedKey(s)));
