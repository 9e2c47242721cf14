import { route } from '../../../shared/http/route';
import { deletion } from '../../../shared/views/deletion';
import { contact } from '../../../shared/views/contacts';
import { deleteCustomer } from '../../../shared/contacts/customers';
import { IdParams } from './schemas';

export const handler = route(
  {
    scope: 'contacts:write',
    params: IdParams,
    response: deletion('customer', contact),
    errors: ['CONFLICT'],
  },
  async ({ params, tenant, now, unit }) => ({
    customer: await deleteCustomer(unit, tenant, params.id, now),
    deleted: true as const,
  }),
);
