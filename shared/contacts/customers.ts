import type { Tenant } from '../domain/auth/tenant';
import { Missing } from '../domain/refusal';
import { newCustomer, setBlocked, updateCustomer, type Customer, type CustomerFields } from '../domain/contacts/customer';
import { assertDeletable } from '../domain/contacts/lifecycle';
import { customerSearch, type CustomerFilters } from '../domain/contacts/search';
import { buildEnvelope, diff, type EventEnvelope } from '../events/envelope';
import { objectId } from '../ids';
import { customerChange, customerCreation, customerDeletion, getCustomer, type StoredCustomer } from '../data/customers';
import { customersPage } from '../data/customers-list';
import { outboxItem } from '../data/outbox';
import type { PageRequest } from '../data/query';
import { lostRace, retryOnConflict } from '../data/retry';
import type { Unit } from '../data/unit';

export const requireCustomer = async (tenant: Tenant, id: string): Promise<StoredCustomer> => {
  const stored = await getCustomer(tenant, id);
  if (!stored) throw new Missing('Customer');
  return stored;
};

/** `customer.contact.<…>` with the customer as `contact`, and what else the event carries. */
export const contactEvent = (
  type: `customer.contact.${string}`,
  tenant: Tenant,
  customer: Customer,
  now: Date,
  extra: Partial<EventEnvelope> = {},
) =>
  outboxItem(
    buildEnvelope(type as EventEnvelope['eventType'], tenant, { contact: customer, ...extra.data }, { changes: extra.changes, now }),
  );

export const createCustomer = async (unit: Unit, tenant: Tenant, input: CustomerFields, now: Date): Promise<Customer> => {
  const customer = newCustomer(input, objectId(now.getTime()), now);
  await retryOnConflict(() =>
    unit.commit([...customerCreation(tenant, customer), contactEvent('customer.contact.created', tenant, customer, now)], lostRace),
  );
  return customer;
};

/** Fields whose change an update event reports. */
const changesOf = (before: Customer, after: Customer) => {
  const { updatedAt: _b, ...b } = before;
  const { updatedAt: _a, ...a } = after;
  return diff(b, a);
};

/**
 * Read, decide, write with a version check, re-run on a lost race. `decide` returns the new customer and
 * its event name, or throws (e.g. CONFLICT for a refused transition). A change of nothing writes nothing.
 */
export const mutateCustomer = (
  unit: Unit,
  tenant: Tenant,
  id: string,
  decide: (c: Customer) => { customer: Customer; event: `customer.contact.${string}` },
  now: Date,
): Promise<Customer> =>
  retryOnConflict(async () => {
    const stored = await requireCustomer(tenant, id);
    const before = stored.customer;
    const { customer: after, event } = decide(before);
    const changes = changesOf(before, after);
    if (Object.keys(changes).length === 0) return before;
    await unit.commit([...customerChange(tenant, stored, after), contactEvent(event, tenant, after, now, { changes })], lostRace);
    return after;
  });

/** Applies a PATCH's contact fields; a patch that changes nothing writes nothing and sends no event. */
export const changeCustomer = (unit: Unit, tenant: Tenant, id: string, patch: CustomerFields, now: Date) =>
  mutateCustomer(unit, tenant, id, (c) => ({ customer: updateCustomer(c, patch, now), event: 'customer.contact.updated' }), now);

/** Blocks or unblocks a customer; asking for the state it is already in is a 409. */
export const setCustomerBlocked = (unit: Unit, tenant: Tenant, id: string, blocked: boolean, now: Date) =>
  mutateCustomer(unit, tenant, id, (c) => setBlocked(c, blocked, now), now);

/** Deletes a customer that has no conversations (see `assertDeletable`) nor leads, with its guards and its tag links. */
export const deleteCustomer = (unit: Unit, tenant: Tenant, id: string, now: Date): Promise<Customer> =>
  retryOnConflict(async () => {
    const stored = await requireCustomer(tenant, id);
    assertDeletable(stored.conversationCount);
    await unit.commit(
      [...customerDeletion(tenant, stored, now), contactEvent('customer.contact.deleted', tenant, stored.customer, now)],
      lostRace,
    );
    return stored.customer;
  });

/** One page of the customers a search selects (see `customerSearch`), with its exact total. */
export const listCustomers = async (tenant: Tenant, filters: CustomerFilters, page: PageRequest) =>
  customersPage(tenant, customerSearch(filters), page);
