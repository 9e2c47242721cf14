import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { fieldErrors } from '../../../shared/http/validation';
import { paginationOf } from '../../../shared/http/pagination';
import { isObjectId, objectId } from '../../../shared/ids';

const Body = z.strictObject({
  url: z.string().startsWith('https://', 'Must be an HTTPS URL'),
  events: z.array(z.string().min(1)).min(1),
  active: z.boolean().optional(),
});

const errorsOf = (input: unknown) => {
  const result = Body.safeParse(input);
  if (result.success) throw new Error('expected failure');
  return fieldErrors(result.error, input);
};

describe('field errors', () => {
  it('marks an absent required field as missing (400) with path and "Required"', () => {
    expect(errorsOf({ events: ['a'] })).toEqual({ missing: true, errors: [{ path: 'url', message: 'Required' }] });
  });

  it('marks a present but invalid field as invalid (422), one entry per field', () => {
    const { missing, errors } = errorsOf({ url: 'http://x', events: [], active: 'yes' });
    expect(missing).toBe(false);
    expect(errors.map((e) => e.path).sort()).toEqual(['active', 'events', 'url']);
    expect(errors.find((e) => e.path === 'url')?.message).toBe('Must be an HTTPS URL');
  });

  it('names array elements by index', () => {
    expect(errorsOf({ url: 'https://x', events: ['ok', ''] }).errors).toEqual([{ path: 'events[1]', message: expect.any(String) }]);
  });

  it('names each unknown field', () => {
    expect(errorsOf({ url: 'https://x', events: ['a'], secrett: 'x', extra: 1 }).errors).toEqual([
      { path: 'secrett', message: 'Unknown field' },
      { path: 'extra', message: 'Unknown field' },
    ]);
  });
});

describe('pagination', () => {
  it('counts pages by ceiling and says whether more exist', () => {
    expect(paginationOf(0, { page: 1, limit: 20 })).toEqual({ total: 0, page: 1, limit: 20, pages: 0, hasMore: false, nextCursor: null });
    expect(paginationOf(41, { page: 2, limit: 20 }, 'c')).toMatchObject({ pages: 3, hasMore: true, nextCursor: 'c' });
  });
});

describe('object ids', () => {
  it('are 24 lowercase hex characters that begin with the creation second', () => {
    const at = Date.UTC(2026, 0, 1);
    const id = objectId(at);
    expect(isObjectId(id)).toBe(true);
    expect(parseInt(id.slice(0, 8), 16)).toBe(at / 1000);
  });

  it('sort by creation time', () => {
    expect(objectId(1_000_000_000_000) < objectId(1_000_000_001_000)).toBe(true);
  });
});
