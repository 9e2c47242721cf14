import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { tagWithCounts } from '../../../shared/views/tags';
import { countedTag } from '../../../shared/tags/catalogue';
import { IdParams } from './params';

export const handler = route(
  { scope: 'tags:read', params: IdParams, response: z.strictObject({ tag: tagWithCounts }) },
  async ({ params, tenant }) => ({
    tag: await countedTag(tenant, params.id),
  }),
);
