import type { Tenant } from '../domain/auth/tenant';
import { ValidationError } from '../domain/errors';
import { Refused } from '../domain/refusal';
import { mergeCustomers as merged } from '../domain/contacts/customer';
import { assertMergeable } from '../domain/contacts/lifecycle';
import { diff } from '../events/envelope';
import { getCustomer } from '../data/customers';
import { mergeWrites } from '../data/customers-merge';
import { lostRace, retryOnConflict } from '../data/retry';
import { MAX_TRANSACTION_WRITES } from '../data/transact';
import type { Unit } from '../data/unit';
import { relinkCustomerLeads } from '../crm/leads';
import { moveCustomerConversations } from '../inbox/conversations';
import { contactEvent, requireCustomer } from './customers';

/**
 * Once the mergee's conversations and leads have moved: one transaction fills the base's gaps from the mergee,
 * hands over its unique values, tags and attributes, deletes it and writes `customer.contact.merged`.
 */
const completeMerge = (unit: Unit, tenant: Tenant, baseId: string, mergeeId: string, now: Date) =>
  retryOnConflict(async () => {
    const [base, mergee] = await Promise.all([requireCustomer(tenant, baseId), requireCustomer(tenant, mergeeId)]);
    // A conversation that reached the mergee after its conversations moved: as a lost race, the merge runs again.
    if (mergee.conversationCount !== 0) throw lostRace();
    const result = merged(base.customer, mergee.customer, now);
    const { updatedAt: _b, ...before } = base.customer;
    const { updatedAt: _a, ...after } = result;
    const writes = [
      ...mergeWrites(tenant, base, mergee, result, now),
      contactEvent('customer.contact.merged', tenant, result, now, {
        data: { mergedContact: mergee.customer },
        changes: diff(before, after),
      }),
    ];
    if (writes.length > MAX_TRANSACTION_WRITES) {
      throw new Refused('merge_too_large', 'Too many tags and identities to merge in one step; detach some tags from the mergee first', {
        tags: mergee.customer.tagIds.length,
        identities: mergee.customer.identities.length,
      });
    }
    await unit.commit(writes, lostRace);
    return result;
  });

/**
 * `POST /customers/merge`: both ids are named in the body, so one 422 names each that is unknown (or of another
 * workspace) before anything moves. Its conversations and leads move first (each in its own transaction), then
 * one transaction merges the customers (see `completeMerge`). Every step is idempotent: a merge interrupted
 * half-way is finished by repeating the call. A customer deleted while the merge runs is a 404.
 */
export const mergeCustomers = async (unit: Unit, tenant: Tenant, baseId: string, mergeeId: string, now: Date) => {
  assertMergeable(baseId, mergeeId);
  const found = await Promise.all([getCustomer(tenant, baseId), getCustomer(tenant, mergeeId)]);
  const unknown = (['baseId', 'mergeeId'] as const).filter((_, i) => !found[i]);
  if (unknown.length) throw new ValidationError(unknown.map((path) => ({ path, message: 'No such customer in this workspace' })));
  const conversationsMoved = await moveCustomerConversations(unit, tenant, mergeeId, baseId, now);
  const leadsMoved = await relinkCustomerLeads(unit, tenant, mergeeId, baseId, now);
  const customer = await completeMerge(unit, tenant, baseId, mergeeId, now);
  return { customer, mergedCustomerId: mergeeId, conversationsMoved, leadsMoved };
};
