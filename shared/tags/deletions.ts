import type { Tenant } from '../domain/auth/tenant';
import { Missing } from '../domain/refusal';
import { mapLimit } from '../domain/map-limit';
import type { Tag } from '../domain/tags/tag';
import { isEntityType, type EntityType } from '../domain/tags/tagging';
import { lostRace, retryOnConflict } from '../data/retry';
import { readTag, sweepTurn, tagHiding, tagRemoval, unfinishedDeletions } from '../data/tags';
import { staleLinkDrop, tagLinksPage } from '../data/tags-delete';
import type { Unit } from '../data/unit';
import { changeEntityTags } from './tagging';

const SWEEP_PAGE = 100;
const SWEEP_CONCURRENCY = 4;

/**
 * First step of deleting a tag: hide it (no longer listed, counted, gettable or attachable) and free its
 * name, atomically. Returns the tag to the one caller that takes on its deletion until `sweepUntil`, and
 * undefined when it does not exist or another caller's turn has not run out: an interrupted deletion is taken
 * on again by a retried DELETE, while concurrent DELETEs see it gone (404) and only one of them succeeds.
 */
export const hideTag = (unit: Unit, tenant: Tenant, id: string, now: Date, sweepUntil: Date = now): Promise<Tag | undefined> =>
  retryOnConflict(async () => {
    const stored = await readTag(tenant, id);
    if (!stored) return undefined;
    if (stored.deletingAt) {
      // Another request is still working on this deletion: to this one the tag is gone, as to a GET.
      if (stored.sweepUntil !== undefined && stored.sweepUntil > now.toISOString()) return undefined;
      await unit.commit([sweepTurn(tenant, id, now, sweepUntil)], lostRace);
      return stored.tag;
    }
    await unit.commit(tagHiding(tenant, stored, now, sweepUntil), lostRace);
    return stored.tag;
  });

class AlreadyDropped extends Error {}

/** A link whose entity is gone or no longer carries the tag: drop it and its count, once. */
const dropStaleLink = async (unit: Unit, tenant: Tenant, tagId: string, type: EntityType, entityId: string) => {
  try {
    await unit.commit(staleLinkDrop(tenant, tagId, type, entityId, () => new AlreadyDropped()));
  } catch (error) {
    if (!(error instanceof AlreadyDropped)) throw error;
  }
};

const detach = async (
  unit: Unit,
  tenant: Tenant,
  tag: Tag,
  [type, entityId]: [EntityType, string],
  now: Date,
): Promise<EntityType | undefined> => {
  if (isEntityType(type)) {
    const outcome = await changeEntityTags(unit, tenant, type, entityId, [tag], 'untag', now);
    if (outcome.kind === 'changed') return type;
  }
  await dropStaleLink(unit, tenant, tag._id, type, entityId);
  return undefined;
};

interface Detached {
  /** Entities untagged by this run (each with its own `…untagged` event). */
  detached: Record<EntityType, number>;
  /** False when the time budget ran out first; the deletion schedule finishes the rest. */
  complete: boolean;
}

/** Detaches a hidden tag from every entity, page by page, then removes it; stops early at `deadline` (ms). */
const finishTagDeletion = async (unit: Unit, tenant: Tenant, tag: Tag, now: Date, deadline = Infinity): Promise<Detached> => {
  const detached = { conversation: 0, customer: 0, lead: 0 };
  let cursor: string | undefined;
  do {
    if (Date.now() >= deadline) return { detached, complete: false };
    const page = await tagLinksPage(tenant, tag._id, SWEEP_PAGE, cursor);
    const types = await mapLimit(page.links, SWEEP_CONCURRENCY, (link) => detach(unit, tenant, tag, link, now));
    for (const type of types) if (type) detached[type]++;
    cursor = page.nextCursor;
  } while (cursor);
  await unit.commit([tagRemoval(tenant, tag._id)]);
  return { detached, complete: true };
};

/** How long a DELETE request sweeps before it answers and leaves the rest to the schedule. */
const REQUEST_BUDGET_MS = 15_000;
/** How long a repeated DELETE answers 404 while the first still sweeps: its budget, and a page's worth more. */
const SWEEP_TURN_MS = REQUEST_BUDGET_MS + 15_000;

/**
 * Deletes a tag: hide it first (so nothing new can attach and it leaves lists and totals at once), detach it
 * from every entity with one transaction and one untagged event per entity, then remove the tag item.
 * Each step is idempotent: a DELETE interrupted half-way is finished by the schedule, or by repeating it.
 */
export const deleteTag = async (unit: Unit, tenant: Tenant, id: string, now: Date): Promise<Detached & { tag: Tag }> => {
  const tag = await hideTag(unit, tenant, id, now, new Date(now.getTime() + SWEEP_TURN_MS));
  if (!tag) throw new Missing('Tag');
  return { tag, ...(await finishTagDeletion(unit, tenant, tag, now, Date.now() + REQUEST_BUDGET_MS)) };
};

/**
 * Finishes deletions hidden before `before` that no request completed (a crash, a timeout), oldest first,
 * until `deadline`. Returns how many were completed.
 */
export const finishStaleDeletions = async (unit: Unit, before: Date, now: Date, deadline: number, batch = 20): Promise<number> => {
  let finished = 0;
  for (const { tenant, tag } of await unfinishedDeletions(before, batch)) {
    if (Date.now() >= deadline) break;
    if ((await finishTagDeletion(unit, tenant, tag, now, deadline)).complete) finished++;
  }
  return finished;
};

/** A DELETE sweeps for at most 15 s; a deletion hidden this long ago is no longer being worked on. */
const STALE_MS = 2 * 60_000;

/** Finishes the tag deletions that a crash or a DELETE's time budget left half-way, until `deadline` (ms); returns how many. */
export const finishInterruptedDeletions = (unit: Unit, now: Date, deadline: number) =>
  finishStaleDeletions(unit, new Date(now.getTime() - STALE_MS), now, deadline);
