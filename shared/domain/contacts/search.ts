import { ValidationError } from '../errors';
import { normalizeEmail, normalizeName, normalizePhone } from './customer';

export interface CustomerFilters {
  name?: string;
  email?: string;
  phone?: string;
  tagId?: string;
}

export type CustomerSearch = { by: 'tag'; tagId: string } | { by: 'name' | 'email' | 'phone'; prefix: string } | { by: 'all' };

/**
 * One filter at a time: a case- and accent-insensitive prefix of the name, a case-insensitive prefix of
 * the email, a prefix of the phone's digits, or a tag. Without a filter: all customers.
 */
export const customerSearch = (f: CustomerFilters): CustomerSearch => {
  const given = (['name', 'email', 'phone', 'tagId'] as const).filter((k) => f[k] !== undefined);
  if (given.length > 1) throw new ValidationError(given.slice(1).map((path) => ({ path, message: 'Only one search or filter at a time' })));
  if (f.tagId) return { by: 'tag', tagId: f.tagId };
  if (f.name !== undefined) return { by: 'name', prefix: normalizeName(f.name) };
  if (f.email !== undefined) return { by: 'email', prefix: normalizeEmail(f.email) };
  if (f.phone !== undefined) return { by: 'phone', prefix: normalizePhone(f.phone) };
  return { by: 'all' };
};
