import type { Tenant } from '../domain/auth/tenant';
import { ValidationError } from '../domain/errors';
import { assertMergeable } from '../domain/contacts/lifecycle';
import { getCustomer } from '../data/customers';
import { completeMerge } from '../data/customers-merge';
import { moveCustomerConversations } from '../inbox/conversations';
import { relinkCustomerLeads } from '../crm/leads';

/**
 * `POST /customers/merge`: both ids are named in the body, so one 422 names each that is unknown (or of another
 * workspace) before anything moves. Its conversations and leads move first (each in its own transaction), then
 * one transaction merges the customers (see `completeMerge`). Every step is idempotent: a merge interrupted
 * half-way is finished by repeating the call. A customer deleted while the merge runs is a 404.
 */
export const mergeCustomers = async (tenant: Tenant, baseId: string, mergeeId: string, now: Date) => {
  assertMergeable(baseId, mergeeId);
  const found = await Promise.all([getCustomer(tenant, baseId), getCustomer(tenant, mergeeId)]);
  const unknown = (['baseId', 'mergeeId'] as const).filter((_, i) => !found[i]);
  if (unknown.length) throw new ValidationError(unknown.map((path) => ({ path, message: 'No such customer in this workspace' })));
  const conversationsMoved = await moveCustomerConversations(tenant, mergeeId, baseId, now);
  const leadsMoved = await relinkCustomerLeads(tenant, mergeeId, baseId, now);
  const customer = await completeMerge(tenant, baseId, mergeeId, now);
  return { customer, mergedCustomerId: mergeeId, conversationsMoved, leadsMoved };
};
