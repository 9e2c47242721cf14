import { Refused } from '../domain/refusal';

/**
 * A list read as the merge of its parts pages by the sort key it stopped at (`<time>#<id>`), in a stored
 * list's cursor shape (its partition and that key), so a cursor issued before the list was merged still resumes.
 */
const ORDER = /^\d{4}-\d{2}-\d{2}T[\d:.]+Z#[0-9a-f]{24}$/;

export const encodeMergedCursor = (pk: string, sk: string) => Buffer.from(JSON.stringify({ pk, sk })).toString('base64url');

/** The sort key a merged list's cursor stopped at; a cursor of another list, or not one at all, is refused. */
export const decodeMergedCursor = (cursor: string, pk: string): string => {
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    key = undefined;
  }
  const { pk: from, sk, ...rest } = (key && typeof key === 'object' ? key : {}) as Record<string, unknown>;
  if (from !== pk || typeof sk !== 'string' || !ORDER.test(sk) || Object.keys(rest).length) {
    throw new Refused('invalid_cursor', 'Invalid or expired cursor');
  }
  return sk;
};
