import { route } from '../../../shared/http/route';
import { deleteTag } from '../../../shared/data/tags-delete';
import { IdParams } from './params';

export const handler = route({ scope: 'tags:write', params: IdParams }, async ({ params, tenant, now }) => {
  const { tag, detached, complete } = await deleteTag(tenant, params.id, now);
  return { tag, deleted: true, detached, complete };
});
