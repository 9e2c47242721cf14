import { route } from '../../../shared/http/route';
import { createCustomer } from '../../../shared/data/customers';
import { CreateCustomer } from './schemas';

export const handler = route({ scope: 'contacts:write', body: CreateCustomer, status: 201 }, async ({ body, tenant, now }) => ({
  customer: await createCustomer(tenant, body, now),
}));
