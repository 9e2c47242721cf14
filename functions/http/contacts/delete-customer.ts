import { route } from '../../../shared/http/route';
import { deleteCustomer } from '../../../shared/data/customers';
import { IdParams } from './schemas';

export const handler = route({ scope: 'contacts:write', params: IdParams, errors: ['CONFLICT'] }, async ({ params, tenant, now }) => ({
  customer: await deleteCustomer(tenant, params.id, now),
  deleted: true,
}));
