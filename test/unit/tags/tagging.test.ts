import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BulkTagging,
  exceedsEntityLimit,
  isEntityType,
  isWellFormedId,
  MAX_TAGS_PER_ENTITY,
  planChange,
  taggingEventType,
} from '../../../shared/domain/tags/tagging';
import { isEventType } from '../../../shared/events/types';

const id = fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 24, maxLength: 24 });
const ids = fc.array(id, { maxLength: 12 });

describe('planning a tag set change', () => {
  it('tagging adds exactly the missing ids and re-applying is a no-op', () => {
    fc.assert(
      fc.property(ids, ids, (current, wanted) => {
        const first = planChange(current, wanted, 'tag');
        expect(new Set(first.after)).toEqual(new Set([...current, ...wanted]));
        expect(first.delta.every((t) => !current.includes(t) && wanted.includes(t))).toBe(true);
        expect(planChange(first.after, wanted, 'tag').delta).toEqual([]);
      }),
    );
  });

  it('untagging removes exactly the present ids and re-applying is a no-op', () => {
    fc.assert(
      fc.property(ids, ids, (current, unwanted) => {
        const first = planChange(current, unwanted, 'untag');
        expect(first.after.some((t) => unwanted.includes(t))).toBe(false);
        expect(new Set([...first.after, ...first.delta])).toEqual(new Set(current));
        expect(planChange(first.after, unwanted, 'untag').delta).toEqual([]);
      }),
    );
  });

  it('reports before and after as sorted, duplicate-free lists', () => {
    const change = planChange(['b', 'a', 'b'], ['c', 'a', 'c'], 'tag');
    expect(change).toEqual({ before: ['a', 'b'], after: ['a', 'b', 'c'], delta: ['c'] });
  });

  it('refuses only growth beyond the per-entity limit, so an entity can always shed tags', () => {
    const full = Array.from({ length: MAX_TAGS_PER_ENTITY }, (_, i) => `t${String(i).padStart(2, '0')}`);
    expect(exceedsEntityLimit(planChange(full, ['new'], 'tag'))).toBe(true);
    expect(exceedsEntityLimit(planChange(full, [full[0]!], 'tag'))).toBe(false);
    expect(exceedsEntityLimit(planChange([...full, 'extra'], ['extra'], 'untag'))).toBe(false);
  });
});

describe('tagging events', () => {
  it.each([
    ['conversation', 'tag', 'inbox.conversation.tagged'],
    ['conversation', 'untag', 'inbox.conversation.untagged'],
    ['customer', 'tag', 'customer.contact.tagged'],
    ['customer', 'untag', 'customer.contact.untagged'],
    ['lead', 'tag', 'crm.lead.tagged'],
    ['lead', 'untag', 'crm.lead.untagged'],
  ] as const)('a %s %s emits %s, a catalog event', (type, action, name) => {
    expect(taggingEventType(type, action)).toBe(name);
    expect(isEventType(name)).toBe(true);
  });
});

describe('the bulk request', () => {
  it('accepts conversations, customers and leads, and nothing else', () => {
    expect(BulkTagging.safeParse({ entityType: 'lead', entityIds: ['x'], tagIds: ['y'] }).success).toBe(true);
    expect(BulkTagging.safeParse({ entityType: 'deal', entityIds: ['x'], tagIds: ['y'] }).success).toBe(false);
    expect(isEntityType('lead') && isEntityType('conversation') && isEntityType('customer')).toBe(true);
    expect(isEntityType('deal')).toBe(false);
  });

  it('caps a call at 100 entities and 10 tags', () => {
    const of = (n: number) => Array.from({ length: n }, () => 'a'.repeat(24));
    expect(BulkTagging.safeParse({ entityType: 'customer', entityIds: of(100), tagIds: of(10) }).success).toBe(true);
    expect(BulkTagging.safeParse({ entityType: 'customer', entityIds: of(101), tagIds: of(10) }).success).toBe(false);
    expect(BulkTagging.safeParse({ entityType: 'customer', entityIds: of(100), tagIds: of(11) }).success).toBe(false);
  });

  it('recognises well-formed ids only as 24 lowercase hex characters', () => {
    fc.assert(fc.property(id, (value) => isWellFormedId(value)));
    for (const bad of ['', 'A'.repeat(24), 'a'.repeat(23), 'a'.repeat(25), 'WS#x#TAG#y']) expect(isWellFormedId(bad)).toBe(false);
  });
});
