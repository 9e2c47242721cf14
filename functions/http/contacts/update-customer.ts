import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { contact } from '../../../shared/views/contacts';
import { changeCustomer } from '../../../shared/contacts/customers';
import { IdParams, UpdateCustomer } from './schemas';

export const handler = route(
  { scope: 'contacts:write', params: IdParams, body: UpdateCustomer, response: z.strictObject({ customer: contact }) },
  async ({ params, body, tenant, now, unit }) => ({
    customer: await changeCustomer(unit, tenant, params.id, body, now),
  }),
);
