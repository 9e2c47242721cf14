import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { tag } from '../../../shared/views/tags';
import { UpdateTag } from '../../../shared/domain/tags/tag';
import { updateTag } from '../../../shared/tags/catalogue';
import { IdParams } from './params';

export const handler = route(
  { scope: 'tags:write', params: IdParams, body: UpdateTag, response: z.strictObject({ tag }) },
  async ({ params, body, tenant, now, unit }) => ({
    tag: await updateTag(unit, tenant, params.id, body, now),
  }),
);
