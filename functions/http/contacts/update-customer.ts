import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { contact } from '../../../shared/views/contacts';
import { mutateCustomer } from '../../../shared/data/customers';
import { updateCustomer } from '../../../shared/domain/contacts/customer';
import { IdParams, UpdateCustomer } from './schemas';

export const handler = route(
  { scope: 'contacts:write', params: IdParams, body: UpdateCustomer, response: z.strictObject({ customer: contact }) },
  async ({ params, body, tenant, now }) => ({
    customer: await mutateCustomer(
      tenant,
      params.id,
      (c) => ({ customer: updateCustomer(c, body, now), event: 'customer.contact.updated' }),
      now,
    ),
  }),
);
