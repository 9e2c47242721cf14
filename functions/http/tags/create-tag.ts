import { route } from '../../../shared/http/route';
import { CreateTag } from '../../../shared/domain/tags/tag';
import { createTag } from '../../../shared/data/tags';

export const handler = route({ scope: 'tags:write', body: CreateTag, status: 201 }, async ({ body, tenant, now }) => ({
  tag: await createTag(tenant, body, now),
}));
