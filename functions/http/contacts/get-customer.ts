import { route } from '../../../shared/http/route';
import { requireCustomer } from '../../../shared/data/customers';
import { IdParams } from './schemas';

export const handler = route({ scope: 'contacts:read', params: IdParams }, async ({ params, tenant }) => ({
  customer: (await requireCustomer(tenant, params.id)).customer,
}));
