import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { tagWithCounts } from '../../../shared/views/tags';
import { NotFoundError } from '../../../shared/domain/errors';
import { countTagged, getTag } from '../../../shared/data/tags';
import { IdParams } from './params';

export const handler = route(
  { scope: 'tags:read', params: IdParams, response: z.strictObject({ tag: tagWithCounts }) },
  async ({ params, tenant }) => {
    const [tag, counts] = await Promise.all([getTag(tenant, params.id), countTagged(tenant, params.id)]);
    if (!tag) throw new NotFoundError('Tag');
    return { tag: { ...tag, counts } };
  },
);
