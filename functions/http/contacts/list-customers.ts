import { route } from '../../../shared/http/route';
import { listOf } from '../../../shared/views/common';
import { contact } from '../../../shared/views/contacts';
import { paginationOf } from '../../../shared/http/pagination';
import { listCustomers } from '../../../shared/contacts/customers';
import { CustomerFilters } from './schemas';

export const handler = route(
  { scope: 'contacts:read', query: CustomerFilters, response: listOf('customers', contact) },
  async ({ query, tenant }) => {
    const { page, limit, cursor, ...filters } = query;
    const { customers, total, nextCursor } = await listCustomers(tenant, filters, { page, limit, cursor });
    return { customers, pagination: paginationOf(total, query, nextCursor) };
  },
);
