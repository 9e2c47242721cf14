import { describe, expect, it } from 'vitest';
import { MAX_LIMIT, paginationOf, wholeList } from '../../../shared/http/pagination';

describe('pagination', () => {
  it('counts pages as ceil(total / limit) for paged and whole lists alike, 0 for an empty list', () => {
    expect(paginationOf(0, { page: 1, limit: 20 })).toMatchObject({ total: 0, limit: 20, pages: 0 });
    expect(wholeList(0)).toMatchObject({ total: 0, page: 1, limit: MAX_LIMIT, pages: 0, hasMore: false, nextCursor: null });
    expect(wholeList(3)).toMatchObject({ total: 3, limit: MAX_LIMIT, pages: 1 });
    expect(wholeList(250)).toMatchObject({ total: 250, limit: 250, pages: 1 });
  });
});
