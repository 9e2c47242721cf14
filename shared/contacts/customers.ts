import type { Tenant } from '../domain/auth/tenant';
import { type CustomerFields, setBlocked, updateCustomer } from '../domain/contacts/customer';
import { mutateCustomer } from '../data/customers';

export { createCustomer, deleteCustomer, requireCustomer } from '../data/customers';
export { listCustomers } from '../data/customers-list';

/** Applies a PATCH's contact fields; a patch that changes nothing writes nothing and sends no event. */
export const changeCustomer = (tenant: Tenant, id: string, patch: CustomerFields, now: Date) =>
  mutateCustomer(tenant, id, (c) => ({ customer: updateCustomer(c, patch, now), event: 'customer.contact.updated' }), now);

/** Blocks or unblocks a customer; asking for the state it is already in is a 409. */
export const setCustomerBlocked = (tenant: Tenant, id: string, blocked: boolean, now: Date) =>
  mutateCustomer(tenant, id, (c) => setBlocked(c, blocked, now), now);
