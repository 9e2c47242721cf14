import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { contact } from '../../../shared/views/contacts';
import { createCustomer } from '../../../shared/contacts/customers';
import { CreateCustomer } from './schemas';

export const handler = route(
  { scope: 'contacts:write', body: CreateCustomer, status: 201, response: z.strictObject({ customer: contact }) },
  async ({ body, tenant, now, unit }) => ({
    customer: await createCustomer(unit, tenant, body, now),
  }),
);
