import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  mergeAttributes,
  mergeCustomers,
  newCustomer,
  normalizeName,
  normalizePhone,
  setBlocked,
  uniqueValues,
} from '../../../shared/domain/contacts/customer';

const now = new Date('2026-01-01T00:00:00Z');

describe('customer rules', () => {
  it('folds names for search: case, accents and whitespace', () => {
    expect(normalizeName('  José   DÍAZ ')).toBe('jose diaz');
    fc.assert(fc.property(fc.string(), (s) => normalizeName(normalizeName(s)) === normalizeName(s)));
  });

  it('reduces a phone search to + and digits', () => {
    expect(normalizePhone('+1 (555) 01')).toBe('+155501');
  });

  it('merges attribute patches, a null removing the key', () => {
    expect(mergeAttributes({ a: 1, b: 'x' }, { b: null, c: true })).toEqual({ a: 1, c: true });
  });

  it('names every unique value by the field it came from', () => {
    const c = newCustomer(
      { email: 'A@B.io', phone: '+15550000001', identities: [{ channel: 'sms', identifier: 'x' }] },
      'a'.repeat(24),
      now,
    );
    expect(uniqueValues(c)).toEqual([
      { kind: 'EMAIL', value: 'a@b.io', path: 'email' },
      { kind: 'PHONE', value: '+15550000001', path: 'phone' },
      { kind: 'IDENTITY', identity: { channel: 'sms', identifier: 'x' }, path: 'identities[0]' },
    ]);
  });

  it('a merge keeps the base values and fills its gaps from the mergee', () => {
    const base = { ...newCustomer({ name: 'Base', attributes: { plan: 'pro' } }, 'a'.repeat(24), now), tagIds: ['t1'] };
    const mergee = {
      ...newCustomer(
        { name: 'Dup', email: 'd@x.io', attributes: { plan: 'free', city: 'Rome' }, identities: [{ channel: 'web', identifier: 'v' }] },
        'b'.repeat(24),
        now,
      ),
      tagIds: ['t1', 't2'],
      lastActivityAt: '2026-01-01T05:00:00.000Z',
    };
    expect(mergeCustomers(base, mergee, now)).toMatchObject({
      _id: base._id,
      name: 'Base',
      email: 'd@x.io',
      attributes: { plan: 'pro', city: 'Rome' },
      identities: [{ channel: 'web', identifier: 'v' }],
      tagIds: ['t1', 't2'],
      lastActivityAt: '2026-01-01T05:00:00.000Z',
    });
  });

  it('refuses blocking a blocked customer and unblocking an unblocked one', () => {
    const c = newCustomer({}, 'a'.repeat(24), now);
    expect(() => setBlocked(c, false, now)).toThrow(expect.objectContaining({ code: 'CONFLICT' }));
    const blocked = setBlocked(c, true, now);
    expect(blocked.event).toBe('customer.contact.blocked');
    expect(() => setBlocked(blocked.customer, true, now)).toThrow(expect.objectContaining({ code: 'CONFLICT' }));
  });
});
