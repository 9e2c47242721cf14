import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { tag } from '../../../shared/views/tags';
import { CreateTag } from '../../../shared/domain/tags/tag';
import { createTag } from '../../../shared/tags/catalogue';

export const handler = route(
  { scope: 'tags:write', body: CreateTag, status: 201, response: z.strictObject({ tag }) },
  async ({ body, tenant, now, unit }) => ({
    tag: await createTag(unit, tenant, body, now),
  }),
);
