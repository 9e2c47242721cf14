import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { contact } from '../../../shared/views/contacts';
import { requireCustomer } from '../../../shared/contacts/customers';
import { IdParams } from './schemas';

export const handler = route(
  { scope: 'contacts:read', params: IdParams, response: z.strictObject({ customer: contact }) },
  async ({ params, tenant }) => ({
    customer: (await requireCustomer(tenant, params.id)).customer,
  }),
);
