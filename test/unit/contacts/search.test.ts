import { describe, expect, it } from 'vitest';
import { assertDeletable, assertMergeable, assertNotBlocked } from '../../../shared/domain/contacts/lifecycle';
import { customerSearch } from '../../../shared/domain/contacts/search';

describe('customer search', () => {
  it('takes one filter at a time and names every extra one', () => {
    expect(() => customerSearch({ name: 'a', email: 'b', tagId: 'c' })).toThrow(
      expect.objectContaining({
        code: 'VALIDATION_ERROR',
        details: {
          errors: [
            { path: 'email', message: 'Only one search or filter at a time' },
            { path: 'tagId', message: 'Only one search or filter at a time' },
          ],
        },
      }),
    );
  });

  it('searches by a normalised prefix, by tag, or lists everyone', () => {
    expect(customerSearch({ email: ' Ann@Example.COM ' })).toEqual({ by: 'email', prefix: 'ann@example.com' });
    expect(customerSearch({ phone: '+1 (555) 01' })).toEqual({ by: 'phone', prefix: '+155501' });
    expect(customerSearch({ tagId: 't' })).toEqual({ by: 'tag', tagId: 't' });
    expect(customerSearch({})).toEqual({ by: 'all' });
  });
});

describe('customer lifecycle', () => {
  it('refuses deleting a customer with conversations, merging one into itself and messages from a blocked one', () => {
    expect(() => assertDeletable(2)).toThrow(expect.objectContaining({ code: 'CONFLICT', details: { conversations: 2 } }));
    expect(() => assertDeletable(0)).not.toThrow();
    expect(() => assertMergeable('a', 'a')).toThrow(expect.objectContaining({ code: 'VALIDATION_ERROR' }));
    expect(() => assertNotBlocked({ _id: 'c', blocked: true })).toThrow(
      expect.objectContaining({ code: 'CONFLICT', details: { customerId: 'c' } }),
    );
  });
});
