import { route } from '../../../shared/http/route';
import { mutateCustomer } from '../../../shared/data/customers';
import { setBlocked } from '../../../shared/domain/contacts/customer';
import { IdParams } from './schemas';

export const handler = route({ scope: 'contacts:write', params: IdParams }, async ({ params, tenant, now }) => ({
  customer: await mutateCustomer(tenant, params.id, (c) => setBlocked(c, true, now), now),
}));
