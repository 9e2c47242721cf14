import * as z from 'zod';
import { OBJECT_ID } from '../../../shared/ids';
import { queryInteger } from '../../../shared/http/query-integer';
import { Locale } from '../../../shared/domain/ai/article';

/** Path ids that are not object ids are unknown resources (404), like ids of another workspace. */
export const IdParams = z.object({ id: z.string().regex(OBJECT_ID) });

export const SearchQuery = z.strictObject({
  q: z.string().trim().min(1).max(1000),
  limit: queryInteger(z.number().int().min(1).max(50)).default(10),
  locale: Locale.optional(),
});

export const SuggestReply = z.strictObject({ conversationId: z.string().regex(OBJECT_ID, 'Must be a 24-character hex id') });
