import { NotFoundError } from '../http/errors';
import type { Tag } from '../domain/tags/tag';
import { isTaggableNow } from '../domain/tags/tagging';
import { bumpCounter } from './counters';
import { tagLinkKey, type TaggableType } from './entity-keys';
import { queryPage } from './query';
import { hideTag, removeHiddenTag, taggedCounter } from './tags';
import { changeEntityTags, mapLimit } from './tags-tagging';
import { deleteItem, transact } from './transact';

const SWEEP_PAGE = 100;
const SWEEP_CONCURRENCY = 4;

class AlreadyDropped extends Error {}

/** A link whose entity is gone or no longer carries the tag: drop it and its count, once. */
const dropStaleLink = async (ws: string, tagId: string, type: TaggableType, entityId: string) => {
  const link = tagLinkKey(ws, tagId, type, entityId);
  try {
    await transact([deleteItem(link, 'attribute_exists(pk)'), bumpCounter(ws, taggedCounter(tagId, type), -1)], () => new AlreadyDropped());
  } catch (error) {
    if (!(error instanceof AlreadyDropped)) throw error;
  }
};

const detach = async (ws: string, tag: Tag, sk: string, now: Date): Promise<TaggableType | undefined> => {
  const [type, entityId] = sk.split('#') as [TaggableType, string];
  if (isTaggableNow(type)) {
    const outcome = await changeEntityTags(ws, type, entityId, [tag], 'untag', now);
    if (outcome.kind === 'changed') return type;
  }
  await dropStaleLink(ws, tag._id, type, entityId);
  return undefined;
};

export interface DeletedTag {
  tag: Tag;
  /** Entities the deletion untagged (each with its own `…untagged` event). */
  detached: { conversation: number; customer: number };
}

/**
 * Deletes a tag: hide it first (so nothing new can attach and it leaves lists and totals at once), detach it
 * from every entity with one transaction and one untagged event per entity, then remove the tag item.
 * Each step is idempotent; a DELETE interrupted half-way is finished by repeating it.
 */
export const deleteTag = async (ws: string, id: string, now: Date): Promise<DeletedTag> => {
  const tag = await hideTag(ws, id, now);
  if (!tag) throw new NotFoundError('Tag');
  const detached = { conversation: 0, customer: 0 };
  const partition = { pk: tagLinkKey(ws, id, 'conversation', '').pk };
  let cursor: string | undefined;
  do {
    const page = await queryPage(partition, { limit: SWEEP_PAGE, cursor });
    const types = await mapLimit(page.items, SWEEP_CONCURRENCY, (link) => detach(ws, tag, link.sk as string, now));
    for (const type of types) if (type === 'conversation' || type === 'customer') detached[type]++;
    cursor = page.nextCursor;
  } while (cursor);
  await removeHiddenTag(ws, id);
  return { tag, detached };
};
