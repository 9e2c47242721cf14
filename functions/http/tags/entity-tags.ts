import type { Tenant } from '../../../shared/domain/auth/tenant';
import { wholeList } from '../../../shared/http/pagination';
import { route } from '../../../shared/http/route';
import { listOf } from '../../../shared/views/common';
import { entityTags, tag } from '../../../shared/views/tags';
import { NotFoundError } from '../../../shared/domain/errors';
import { TagIdsBody, type TagAction, type EntityType } from '../../../shared/domain/tags/tagging';
import { getTag, tagsByName } from '../../../shared/data/tags';
import { applyTagging, entityTagIds } from '../../../shared/data/tags-tagging';
import { EntityTagParams, IdParams } from './params';

/** The tag routes under an entity: `…/{id}/tags` (GET, POST) and `…/{id}/tags/{tagId}` (DELETE). */
const notFound = {
  conversation: () => new NotFoundError('Conversation'),
  customer: () => new NotFoundError('Customer'),
  lead: () => new NotFoundError('Lead'),
};

const change = async (tenant: Tenant, type: EntityType, id: string, tagIds: string[], action: TagAction, now: Date) => {
  const result = await applyTagging(tenant, { entityType: type, entityIds: [id], tagIds }, action, now, { notFound: notFound[type] });
  return { tags: await tagsByName(tenant, result.tagIdsAfter.get(id)!), changed: result.changed.length > 0 };
};

export const listEntityTags = (type: EntityType) =>
  route({ scope: 'tags:read', params: IdParams, response: listOf('tags', tag) }, async ({ params, tenant }) => {
    const tagIds = await entityTagIds(tenant, type, params.id);
    if (!tagIds) throw notFound[type]();
    const tags = await tagsByName(tenant, tagIds);
    return { tags, pagination: wholeList(tags.length) };
  });

export const attachTags = (type: EntityType) =>
  route({ scope: 'tags:write', params: IdParams, body: TagIdsBody, response: entityTags }, ({ params, body, tenant, now }) =>
    change(tenant, type, params.id, body.tagIds, 'tag', now),
  );

export const detachTag = (type: EntityType) =>
  route({ scope: 'tags:write', params: EntityTagParams, response: entityTags }, async ({ params, tenant, now }) => {
    if (!(await getTag(tenant, params.tagId))) throw new NotFoundError('Tag');
    return change(tenant, type, params.id, [params.tagId], 'untag', now);
  });
