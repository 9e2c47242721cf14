import { describe, expect, it } from 'vitest';
import { checkTaggingRequest, MAX_TAGS_PER_ENTITY } from '../../../shared/domain/tags/tagging';

const id = (c: string) => c.repeat(24);
const errorsOf = (fn: () => void) => {
  try {
    fn();
  } catch (error) {
    return (error as { details: { errors: unknown[] } }).details.errors;
  }
  return [];
};

describe('tagging requests', () => {
  it('report every malformed, unknown or overfull entity and every unknown tag by index, at once', () => {
    const full = Array.from({ length: MAX_TAGS_PER_ENTITY }, (_, i) => `t${i}`);
    const current = new Map([
      [id('a'), []],
      [id('b'), full],
    ]);
    const errors = errorsOf(() =>
      checkTaggingRequest(
        { entityType: 'customer', entityIds: [id('a'), 'nope', id('c'), id('b')], tagIds: [id('1'), id('2')] },
        new Set([id('1')]),
        current,
        'tag',
        (i) => `entityIds[${i}]`,
      ),
    );
    expect(errors).toEqual([
      { path: 'entityIds[1]', message: 'Must be a 24-character hex id' },
      { path: 'entityIds[2]', message: 'No such customer in this workspace' },
      { path: 'entityIds[3]', message: `Would carry more than ${MAX_TAGS_PER_ENTITY} tags` },
      { path: 'tagIds[1]', message: 'No such tag in this workspace' },
    ]);
  });
});
