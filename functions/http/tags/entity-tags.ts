import { wholeList } from '../../../shared/http/pagination';
import { route } from '../../../shared/http/route';
import { deletion } from '../../../shared/views/deletion';
import { listOf } from '../../../shared/views/common';
import { entityTags, tag } from '../../../shared/views/tags';
import { TagIdsBody, type EntityType } from '../../../shared/domain/tags/tagging';
import { addTags, removeTag, tagsOf } from '../../../shared/tags/tagging';
import { EntityTagParams, IdParams } from './params';

/** The tag routes under an entity: `…/{id}/tags` (GET, POST) and `…/{id}/tags/{tagId}` (DELETE: a 404 when it is not attached). */
export const listEntityTags = (type: EntityType) =>
  route({ scope: 'tags:read', params: IdParams, response: listOf('tags', tag) }, async ({ params, tenant }) => {
    const tags = await tagsOf(tenant, type, params.id);
    return { tags, pagination: wholeList(tags.length) };
  });

export const attachTags = (type: EntityType) =>
  route({ scope: 'tags:write', params: IdParams, body: TagIdsBody, response: entityTags }, ({ params, body, tenant, now, unit }) =>
    addTags(unit, tenant, type, params.id, body.tagIds, now),
  );

export const detachTag = (type: EntityType) =>
  route({ scope: 'tags:write', params: EntityTagParams, response: deletion('tag', tag) }, async ({ params, tenant, now, unit }) => ({
    tag: await removeTag(unit, tenant, type, params.id, params.tagId, now),
    deleted: true as const,
  }));
