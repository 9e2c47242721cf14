import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { contact } from '../../../shared/views/contacts';
import { deleteCustomer } from '../../../shared/contacts/customers';
import { IdParams } from './schemas';

export const handler = route(
  {
    scope: 'contacts:write',
    params: IdParams,
    response: z.strictObject({ customer: contact, deleted: z.literal(true) }),
    errors: ['CONFLICT'],
  },
  async ({ params, tenant, now }) => ({
    customer: await deleteCustomer(tenant, params.id, now),
    deleted: true as const,
  }),
);
