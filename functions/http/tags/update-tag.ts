import { route } from '../../../shared/http/route';
import { UpdateTag } from '../../../shared/domain/tags/tag';
import { updateTag } from '../../../shared/data/tags';
import { IdParams } from './params';

export const handler = route({ scope: 'tags:write', params: IdParams, body: UpdateTag }, async ({ params, body, tenant, now }) => ({
  tag: await updateTag(tenant, params.id, body, now),
}));
