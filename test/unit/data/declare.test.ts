import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { testTenant } from '../../../shared/domain/auth/tenant';
import { declare } from '../../../shared/data/registry/define';
import { tag, tagLink } from '../../../shared/data/registry/tags';

const tenant = testTenant('0123456789abcdef01234567');

describe('an entity declared once', () => {
  it('builds its keys from its templates, with the tenant as tenantPk writes it', () => {
    expect(tag.key({ tenant, id: 'abc' })).toEqual({ pk: `WS#${tenant}#TAG#abc`, sk: 'TAG' });
    expect(tag.index('gsi1', { tenant, nameKey: 'vip', id: 'abc' })).toEqual({ gsi1pk: `WS#${tenant}#TAGS`, gsi1sk: 'vip#abc' });
    expect(tag.build('gsi2pk', {})).toBe('TAG_DELETIONS');
  });

  it('reads back the values a key was built from, the last one whole even when it holds the separator', () => {
    const { sk } = tagLink.key({ tenant, tagId: 't', entityType: 'lead', entityId: 'x#y' });
    expect(tagLink.read('sk', sk)).toEqual({ entityType: 'lead', entityId: 'x#y' });
    expect(tag.read('gsi2sk', `2026-01-01T00:00:00.000Z#${tenant}#abc`)).toEqual({
      deletingAt: '2026-01-01T00:00:00.000Z',
      tenant,
      id: 'abc',
    });
    expect(() => tag.read('gsi2sk', undefined)).toThrow(/not a string/);
  });

  it('builds the leading part of a key up to the first value not given, for a begins_with read', () => {
    expect(tagLink.prefix('sk', { entityType: 'lead' })).toBe('lead#');
    expect(tagLink.prefix('sk', {})).toBe('');
    expect(tag.prefix('gsi2sk', { deletingAt: 'd', tenant })).toBe(`d#${tenant}#`);
  });

  it('reads an item by its schema: only the declared fields, an absent nullable one as null, a wrong one refused', () => {
    const thing = declare({
      name: 'Thing',
      about: 'A test entity.',
      prefixes: ['THING'],
      keys: { pk: 'WS#<tenant>#THING#<id>', sk: 'THING' },
      patterns: [],
      itemTypes: ['THING'],
      personal: ['label'],
      schema: z.object({ label: z.string(), note: z.string().nullable() }),
    });
    expect(thing.parse({ pk: 'p', sk: 's', label: 'a' })).toEqual({ label: 'a', note: null });
    expect(() => thing.parse({ label: 3 })).toThrow();
    expect(thing.keys.pk).toBe('<tenant>#THING#<id>');
  });

  it('given its schema as a function, builds it at the first read, once, not at the declaration', () => {
    let builds = 0;
    const lazyThing = declare({
      name: 'Lazy thing',
      about: 'A test entity.',
      prefixes: ['LAZY'],
      keys: { pk: 'WS#<tenant>#LAZY#<id>', sk: 'LAZY' },
      patterns: [],
      itemTypes: ['LAZY'],
      personal: [],
      schema: () => {
        builds += 1;
        return z.object({ n: z.number().default(0) });
      },
    });
    expect(lazyThing.key({ tenant, id: 'a' }).sk).toBe('LAZY');
    expect(builds).toBe(0);
    expect(lazyThing.parse({ n: 2 })).toEqual({ n: 2 });
    expect(lazyThing.parse({})).toEqual({ n: 0 });
    expect(Object.keys(lazyThing.schema.shape)).toEqual(['n']);
    expect(builds).toBe(1);
  });
});
