import * as z from 'zod';
import { queryInteger } from '../../../shared/http/query-integer';
import { Locale } from '../../../shared/domain/ai/article';
import { ObjectId } from '../../../shared/http/params';
import { built } from '../../../shared/domain/built';
export { IdParams } from '../../../shared/http/params';

/** Path ids that are not object ids are unknown resources (404), like ids of another workspace. */

export const SearchQuery = /* @__PURE__ */ built(() =>
  z.strictObject({
    q: z.string().trim().min(1).max(1000),
    limit: queryInteger(z.number().int().min(1).max(50)).default(10),
    locale: Locale.optional(),
  }),
);

export const SuggestReply = /* @__PURE__ */ built(() => z.strictObject({ conversationId: ObjectId }));
