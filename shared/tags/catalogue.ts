import type { Tenant } from '../domain/auth/tenant';
import { NotFoundError } from '../domain/errors';
import { countTagged, getTag } from '../data/tags';

export { createTag, listTags, updateTag } from '../data/tags';

/** A tag with how many entities of each type carry it. */
export const countedTag = async (tenant: Tenant, id: string) => {
  const [tag, counts] = await Promise.all([getTag(tenant, id), countTagged(tenant, id)]);
  if (!tag) throw new NotFoundError('Tag');
  return { ...tag, counts };
};
