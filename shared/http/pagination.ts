import * as z from 'zod';

export const MAX_LIMIT = 100;

/** `page`/`limit` as the contract says, plus `cursor` for deep paging that stays O(limit); any other parameter is refused. */
export const ListQuery = z.strictObject({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  limit: z.coerce.number().int().min(1).max(MAX_LIMIT).default(20),
  cursor: z.string().min(1).max(2048).optional(),
});

export type ListQuery = z.infer<typeof ListQuery>;

export interface Pagination {
  total: number;
  page: number;
  limit: number;
  pages: number;
  hasMore: boolean;
  nextCursor: string | null;
}

export const paginationOf = (total: number, query: Pick<ListQuery, 'page' | 'limit'>, nextCursor?: string): Pagination => ({
  total,
  page: query.page,
  limit: query.limit,
  pages: Math.ceil(total / query.limit),
  hasMore: nextCursor !== undefined,
  nextCursor: nextCursor ?? null,
});

/** The pagination of a list answered whole, in one page (a page of at least one, even when empty). */
export const onePage = (total: number): Pagination => paginationOf(total, { page: 1, limit: Math.max(total, 1) });
