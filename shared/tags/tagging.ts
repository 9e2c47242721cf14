import type { Tenant } from '../domain/auth/tenant';
import { NotFoundError } from '../domain/errors';
import type { EntityType, TagAction } from '../domain/tags/tagging';
import { getTag, tagsByName } from '../data/tags';
import { applyTagging, entityTagIds } from '../data/tags-tagging';

export { applyTagging } from '../data/tags-tagging';

const notFound = {
  conversation: () => new NotFoundError('Conversation'),
  customer: () => new NotFoundError('Customer'),
  lead: () => new NotFoundError('Lead'),
};

/** Tags or untags one entity (a 404 when it does not exist); answers its tags after the call and whether it changed. */
const change = async (tenant: Tenant, type: EntityType, id: string, tagIds: string[], action: TagAction, now: Date) => {
  const result = await applyTagging(tenant, { entityType: type, entityIds: [id], tagIds }, action, now, { notFound: notFound[type] });
  return { tags: await tagsByName(tenant, result.tagIdsAfter.get(id)!), changed: result.changed.length > 0 };
};

/** The tags one entity carries, by name; a 404 when the entity does not exist. */
export const tagsOf = async (tenant: Tenant, type: EntityType, id: string) => {
  const tagIds = await entityTagIds(tenant, type, id);
  if (!tagIds) throw notFound[type]();
  return tagsByName(tenant, tagIds);
};

export const addTags = (tenant: Tenant, type: EntityType, id: string, tagIds: string[], now: Date) =>
  change(tenant, type, id, tagIds, 'tag', now);

/**
 * Removes one tag from one entity and answers the tag; a 404 when the tag does not exist or the entity does not
 * carry it (any more), as a repeated DELETE of any resource answers.
 */
export const removeTag = async (tenant: Tenant, type: EntityType, id: string, tagId: string, now: Date) => {
  const tag = await getTag(tenant, tagId);
  if (!tag) throw new NotFoundError('Tag');
  const { changed } = await change(tenant, type, id, [tagId], 'untag', now);
  if (!changed) throw new NotFoundError('Tag');
  return tag;
};
