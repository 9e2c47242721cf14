import * as z from 'zod';
import { queryInteger } from './query-integer';
import { built } from '../domain/built';

export const MAX_LIMIT = 100;

/** `page`/`limit` as the contract says, plus `cursor` for deep paging that stays O(limit); any other parameter is refused. */
export const ListQuery = /* @__PURE__ */ built(() =>
  z.strictObject({
    page: queryInteger(z.number().int().min(1).max(100_000)).default(1),
    limit: queryInteger(z.number().int().min(1).max(MAX_LIMIT)).default(20),
    cursor: z.string().min(1).max(2048).optional(),
  }),
);

export type ListQuery = z.infer<typeof ListQuery>;

export interface Pagination {
  total: number;
  /** The page's number when fetched by `page`; null when fetched by `cursor`, which names a position, not a page. */
  page: number | null;
  limit: number;
  pages: number;
  hasMore: boolean;
  nextCursor: string | null;
}

/**
 * One rule for every list: `pages` is `ceil(total / limit)` (0 when empty), `limit` the most a page holds (at
 * least 1), and a page fetched by `cursor` reports no `page` number (null): where it starts is no multiple of
 * `limit` once items come and go, so any number would mislead.
 */
export const paginationOf = (
  total: number,
  query: Pick<ListQuery, 'page' | 'limit'> & { cursor?: string },
  nextCursor?: string,
): Pagination => ({
  total,
  page: query.cursor === undefined ? query.page : null,
  limit: query.limit,
  pages: Math.ceil(total / query.limit),
  hasMore: nextCursor !== undefined,
  nextCursor: nextCursor ?? null,
});

/** A list answered whole, in one page: a page holds all of it, and at least as much as the largest `limit`. */
export const wholeList = (total: number): Pagination => paginationOf(total, { page: 1, limit: Math.max(total, MAX_LIMIT) });
