import { route } from '../../../shared/http/route';
import { deletion } from '../../../shared/views/deletion';
import { deletedTag } from '../../../shared/views/tags';
import { deleteTag } from '../../../shared/tags/deletions';
import { IdParams } from './params';

export const handler = route(
  { scope: 'tags:write', params: IdParams, response: deletion('tag', deletedTag) },
  async ({ params, tenant, now, unit }) => {
    const { tag, detached, complete } = await deleteTag(unit, tenant, params.id, now);
    return { tag: { ...tag, detached, complete }, deleted: true as const };
  },
);
