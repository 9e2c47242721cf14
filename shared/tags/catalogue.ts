import type { Tenant } from '../domain/auth/tenant';
import { NotFoundError } from '../domain/errors';
import { Missing } from '../domain/refusal';
import { applyUpdate, newTag, type CreateTag, type Tag, type UpdateTag } from '../domain/tags/tag';
import { objectId } from '../ids';
import type { PageRequest } from '../data/query';
import { lostRace, retryOnConflict } from '../data/retry';
import { countTagged, getTag, readTag, tagCreation, tagsPage, tagUpdate } from '../data/tags';
import type { Unit } from '../data/unit';

export const createTag = async (unit: Unit, tenant: Tenant, input: CreateTag, now: Date): Promise<Tag> => {
  const tag = newTag(objectId(now.getTime()), input, now);
  await unit.commit(tagCreation(tenant, tag));
  return tag;
};

export const listTags = (tenant: Tenant, page: PageRequest) => tagsPage(tenant, page);

/**
 * Optimistic: the write is conditional on the version read (re-run on a lost race), and a rename swaps the name
 * guard in the same transaction. A PATCH that changes no field writes nothing and returns the tag as it was.
 */
export const updateTag = (unit: Unit, tenant: Tenant, id: string, input: UpdateTag, now: Date): Promise<Tag> =>
  retryOnConflict(async () => {
    const stored = await readTag(tenant, id);
    if (!stored || stored.deletingAt) throw new Missing('Tag');
    const before = stored.tag;
    const after = applyUpdate(before, input, now);
    if ((['name', 'color', 'description'] as const).every((k) => after[k] === before[k])) return before;
    await unit.commit(tagUpdate(tenant, stored, after), lostRace);
    return after;
  });

/** A tag with how many entities of each type carry it. */
export const countedTag = async (tenant: Tenant, id: string) => {
  const [tag, counts] = await Promise.all([getTag(tenant, id), countTagged(tenant, id)]);
  if (!tag) throw new NotFoundError('Tag');
  return { ...tag, counts };
};
