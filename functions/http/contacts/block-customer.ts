import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { contact } from '../../../shared/views/contacts';
import { mutateCustomer } from '../../../shared/data/customers';
import { setBlocked } from '../../../shared/domain/contacts/customer';
import { IdParams } from './schemas';

export const handler = route(
  { scope: 'contacts:write', params: IdParams, response: z.strictObject({ customer: contact }) },
  async ({ params, tenant, now }) => ({
    customer: await mutateCustomer(tenant, params.id, (c) => setBlocked(c, true, now), now),
  }),
);
