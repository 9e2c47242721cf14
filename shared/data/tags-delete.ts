import type { Tenant } from '../domain/auth/tenant';
import { Missing } from '../domain/refusal';
import type { Tag } from '../domain/tags/tag';
import { isEntityType, type EntityType } from '../domain/tags/tagging';
import { bumpCounter } from './counters';
import { tagLinkKey, type TaggableType } from './entity-keys';
import { queryPage } from './query';
import { hideTag, removeHiddenTag, unfinishedDeletions } from './tags';
import { taggedCounter } from './tag-links';
import { changeEntityTags, mapLimit } from './tags-tagging';
import { deleteItem, transact } from './transact';

const SWEEP_PAGE = 100;
const SWEEP_CONCURRENCY = 4;

class AlreadyDropped extends Error {}

/** A link whose entity is gone or no longer carries the tag: drop it and its count, once. */
const dropStaleLink = async (tenant: Tenant, tagId: string, type: TaggableType, entityId: string) => {
  const link = tagLinkKey(tenant, tagId, type, entityId);
  try {
    await transact(
      [deleteItem(link, { condition: 'attribute_exists(pk)' }), bumpCounter(tenant, taggedCounter(tagId, type), -1)],
      () => new AlreadyDropped(),
    );
  } catch (error) {
    if (!(error instanceof AlreadyDropped)) throw error;
  }
};

const detach = async (tenant: Tenant, tag: Tag, sk: string, now: Date): Promise<TaggableType | undefined> => {
  const [type, entityId] = sk.split('#') as [TaggableType, string];
  if (isEntityType(type)) {
    const outcome = await changeEntityTags(tenant, type, entityId, [tag], 'untag', now);
    if (outcome.kind === 'changed') return type;
  }
  await dropStaleLink(tenant, tag._id, type, entityId);
  return undefined;
};

export interface Detached {
  /** Entities untagged by this run (each with its own `…untagged` event). */
  detached: Record<EntityType, number>;
  /** False when the time budget ran out first; the deletion schedule finishes the rest. */
  complete: boolean;
}

/** Detaches a hidden tag from every entity, page by page, then removes it; stops early at `deadline` (ms). */
const finishTagDeletion = async (tenant: Tenant, tag: Tag, now: Date, deadline = Infinity): Promise<Detached> => {
  const detached = { conversation: 0, customer: 0, lead: 0 };
  const partition = { pk: tagLinkKey(tenant, tag._id, 'conversation', '').pk };
  let cursor: string | undefined;
  do {
    if (Date.now() >= deadline) return { detached, complete: false };
    const page = await queryPage(partition, { limit: SWEEP_PAGE, cursor });
    const types = await mapLimit(page.items, SWEEP_CONCURRENCY, (link) => detach(tenant, tag, link.sk as string, now));
    for (const type of types) if (type) detached[type]++;
    cursor = page.nextCursor;
  } while (cursor);
  await removeHiddenTag(tenant, tag._id);
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
export const deleteTag = async (tenant: Tenant, id: string, now: Date): Promise<Detached & { tag: Tag }> => {
  const tag = await hideTag(tenant, id, now, new Date(now.getTime() + SWEEP_TURN_MS));
  if (!tag) throw new Missing('Tag');
  return { tag, ...(await finishTagDeletion(tenant, tag, now, Date.now() + REQUEST_BUDGET_MS)) };
};

/**
 * Finishes deletions hidden before `before` that no request completed (a crash, a timeout), oldest first,
 * until `deadline`. Returns how many were completed.
 */
export const finishStaleDeletions = async (before: Date, now: Date, deadline: number, batch = 20): Promise<number> => {
  let finished = 0;
  for (const { tenant, tag } of await unfinishedDeletions(before, batch)) {
    if (Date.now() >= deadline) break;
    if ((await finishTagDeletion(tenant, tag, now, deadline)).complete) finished++;
  }
  return finished;
};
