import { describe, expect, it } from 'vitest';
import { applyUpdate, CreateTag, DEFAULT_TAG_COLOR, nameKey, newTag, UpdateTag } from '../../../shared/domain/tags/tag';

const now = new Date('2026-01-02T03:04:05.000Z');
const later = new Date('2026-02-03T04:05:06.000Z');

describe('tag names', () => {
  it('are the same name regardless of case, surrounding space and Unicode form', () => {
    expect(nameKey(' VIP ')).toBe(nameKey('vip'));
    expect(nameKey('Café')).toBe(nameKey('Cafe\u0301'));
    expect(nameKey('ＶＩＰ')).toBe(nameKey('vip'));
    expect(nameKey('vip')).not.toBe(nameKey('v ip'));
  });

  it('are trimmed, non-empty, at most 50 characters and free of control characters', () => {
    expect(CreateTag.parse({ name: '  Billing ' }).name).toBe('Billing');
    expect(CreateTag.safeParse({ name: '   ' }).success).toBe(false);
    expect(CreateTag.safeParse({ name: 'x'.repeat(51) }).success).toBe(false);
    expect(CreateTag.safeParse({ name: 'a\u0000b' }).success).toBe(false);
  });
});

describe('tag colors', () => {
  it('accept #rrggbb in any case, store it lowercase, and refuse anything else', () => {
    expect(CreateTag.parse({ name: 'a', color: '#ABCdef' }).color).toBe('#abcdef');
    for (const color of ['red', '#abc', 'abcdef', '#abcdeg', '#abcdef0'])
      expect(CreateTag.safeParse({ name: 'a', color }).success).toBe(false);
  });
});

describe('creating and updating', () => {
  it('a new tag gets the default color and a null description', () => {
    expect(newTag('t1', CreateTag.parse({ name: 'a' }), now)).toEqual({
      _id: 't1',
      name: 'a',
      color: DEFAULT_TAG_COLOR,
      description: null,
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
    });
  });

  it('an update changes only the fields it names, and an empty or null description clears it', () => {
    const tag = newTag('t1', CreateTag.parse({ name: 'a', color: '#111111', description: 'd' }), now);
    expect(applyUpdate(tag, UpdateTag.parse({ color: '#222222' }), later)).toEqual({
      ...tag,
      color: '#222222',
      updatedAt: later.toISOString(),
    });
    expect(applyUpdate(tag, UpdateTag.parse({ description: null }), later).description).toBeNull();
    expect(applyUpdate(tag, UpdateTag.parse({ description: '' }), later).description).toBeNull();
  });

  it('refuses unknown fields', () => {
    expect(UpdateTag.safeParse({ colour: '#111111' }).success).toBe(false);
  });
});
