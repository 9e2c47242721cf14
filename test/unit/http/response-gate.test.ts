import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { answerProblems, checkAnswer, paginationProblems } from '../../support/response-gate';

const tag = {
  _id: '6b0000000000000000000001',
  name: 'VIP',
  color: '#ff0000',
  description: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};
const counts = { conversation: 1, customer: 0, lead: 2 };
const path = `/api/v1/tags/${tag._id}`;

describe('the response gate', () => {
  it('passes an answer that is exactly what its route declares', async () => {
    await expect(
      checkAnswer({ method: 'GET', path, status: 200, body: { success: true, data: { tag: { ...tag, counts } } } }),
    ).resolves.toBeUndefined();
    await expect(
      checkAnswer({ method: 'GET', path, status: 404, body: { success: false, error: { code: 'NOT_FOUND', message: 'Tag not found' } } }),
    ).resolves.toBeUndefined();
  });

  it('fails a success with a field its schema does not declare, however deep', async () => {
    await expect(
      checkAnswer({ method: 'GET', path, status: 200, body: { success: true, data: { tag: { ...tag, counts, pk: 'WS#1' } } } }),
    ).rejects.toThrow(/tag.*pk/);
    await expect(
      checkAnswer({
        method: 'GET',
        path: `${path}?x=1`,
        status: 200,
        body: { success: true, data: { tag: { ...tag, counts }, extra: 1 } },
      }),
    ).rejects.toThrow(/extra/);
  });

  it('fails a success with a missing or mistyped field, or outside the wrapper', async () => {
    await expect(checkAnswer({ method: 'GET', path, status: 200, body: { success: true, data: { tag } } })).rejects.toThrow(/counts/);
    await expect(
      checkAnswer({ method: 'GET', path, status: 200, body: { success: true, data: { tag: { ...tag, counts, name: 7 } } } }),
    ).rejects.toThrow(/name/);
    await expect(checkAnswer({ method: 'GET', path, status: 200, body: { tag: { ...tag, counts } } })).rejects.toThrow(/success/);
  });

  it('fails an error that is not the contract wrapper: unknown code, extra field, missing message', async () => {
    await expect(
      checkAnswer({ method: 'GET', path, status: 404, body: { success: false, error: { code: 'MISSING', message: 'x' } } }),
    ).rejects.toThrow(/code/);
    await expect(
      checkAnswer({
        method: 'GET',
        path,
        status: 404,
        body: { success: false, error: { code: 'NOT_FOUND', message: 'x', stack: 'at x.ts:1' } },
      }),
    ).rejects.toThrow(/stack/);
    await expect(
      checkAnswer({ method: 'GET', path, status: 500, body: { success: false, error: { code: 'INTERNAL_ERROR' } } }),
    ).rejects.toThrow(/message/);
  });

  it('fails a success for a method and path no route has', async () => {
    await expect(checkAnswer({ method: 'PUT', path, status: 200, body: { success: true, data: {} } })).rejects.toThrow(/no route/);
  });

  it('finds undeclared fields even where a schema strips instead of refusing', () => {
    expect(answerProblems(z.object({ a: z.array(z.object({ b: z.number() })) }), { a: [{ b: 1 }, { b: 2, c: 3 }] })).toEqual([
      '$.a[1].c: not declared',
    ]);
  });

  it('fails a list answer whose pagination misreports what was asked: a number for a cursor page, another page, cursor with page answered', async () => {
    const list = (pagination: object) => ({ success: true, data: { tags: [], pagination } });
    const paged = { total: 25, page: 2, limit: 10, pages: 3, hasMore: true, nextCursor: 'c2' };
    await expect(
      checkAnswer({ method: 'GET', path: '/api/v1/tags?limit=10&page=2', status: 200, body: list(paged) }),
    ).resolves.toBeUndefined();
    await expect(
      checkAnswer({ method: 'GET', path: '/api/v1/tags?limit=10&cursor=c1', status: 200, body: list({ ...paged, page: null }) }),
    ).resolves.toBeUndefined();
    expect(paginationProblems('/api/v1/tags?limit=10&cursor=c1', 200, list({ ...paged, page: 1 }))).toEqual([
      '$.data.pagination.page: 1, not null as asked',
    ]);
    expect(paginationProblems('/api/v1/tags?limit=10&cursor=c1&page=3', 200, list({ ...paged, page: 3, pages: 1 }))).toEqual([
      'cursor with page answered 200, not 422 on page',
      '$.data.pagination.page: 3, not null as asked',
      '$.data.pagination.pages: 1 pages of 10 for 25',
    ]);
    expect(paginationProblems('/api/v1/tags?limit=10', 200, list({ ...paged, hasMore: false }))).toEqual([
      '$.data.pagination.page: 2, not 1 as asked',
      '$.data.pagination.hasMore: false with nextCursor c2',
    ]);
    expect(paginationProblems('/api/v1/tags?cursor=c1&page=3', 422, { success: false })).toEqual([]);
  });
});
