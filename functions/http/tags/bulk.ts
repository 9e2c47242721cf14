import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { bulkTagging } from '../../../shared/views/tags';
import { BulkTagging, type TagAction } from '../../../shared/domain/tags/tagging';
import { applyTagging } from '../../../shared/tags/tagging';

/** `POST /tags/bulk` and `/tags/bulk/remove`: the same body and answer, adding or removing. */
export const bulkRoute = (action: TagAction) =>
  route(
    { scope: 'tags:write', body: BulkTagging, response: z.strictObject({ bulk: bulkTagging }) },
    async ({ body, tenant, now, unit }) => {
      const { changed, unchanged } = await applyTagging(unit, tenant, body, action, now);
      return { bulk: { action, entityType: body.entityType, tagIds: [...new Set(body.tagIds)], changed, unchanged } };
    },
  );
