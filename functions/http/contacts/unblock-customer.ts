import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { contact } from '../../../shared/views/contacts';
import { setCustomerBlocked } from '../../../shared/contacts/customers';
import { IdParams } from './schemas';

export const handler = route(
  { scope: 'contacts:write', params: IdParams, response: z.strictObject({ customer: contact }) },
  async ({ params, tenant, now, unit }) => ({
    customer: await setCustomerBlocked(unit, tenant, params.id, false, now),
  }),
);
