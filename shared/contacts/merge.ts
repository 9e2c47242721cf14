import type { Tenant } from '../domain/auth/tenant';
import { ValidationError } from '../domain/errors';
import { assertMergeable } from '../domain/contacts/lifecycle';
import { getCustomer } from '../data/customers';
import { mergeCustomers as mergeStored } from '../data/customers-merge';

/**
 * `POST /customers/merge`: both ids are named in the body, so one 422 names each that is unknown (or of another
 * workspace) before anything moves. A customer deleted while the merge runs is a 404 from the repository.
 */
export const mergeCustomers = async (tenant: Tenant, baseId: string, mergeeId: string, now: Date) => {
  assertMergeable(baseId, mergeeId);
  const found = await Promise.all([getCustomer(tenant, baseId), getCustomer(tenant, mergeeId)]);
  const unknown = (['baseId', 'mergeeId'] as const).filter((_, i) => !found[i]);
  if (unknown.length) throw new ValidationError(unknown.map((path) => ({ path, message: 'No such customer in this workspace' })));
  return mergeStored(tenant, baseId, mergeeId, now);
};
