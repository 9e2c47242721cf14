import { route } from '../../../shared/http/route';
import { tagDeletion } from '../../../shared/views/tags';
import { deleteTag } from '../../../shared/tags/deletions';
import { IdParams } from './params';

export const handler = route({ scope: 'tags:write', params: IdParams, response: tagDeletion }, async ({ params, tenant, now }) => {
  const { tag, detached, complete } = await deleteTag(tenant, params.id, now);
  return { tag, deleted: true as const, detached, complete };
});
