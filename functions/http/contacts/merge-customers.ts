import { route } from '../../../shared/http/route';
import { customerMerge } from '../../../shared/views/contacts';
import { mergeCustomers } from '../../../shared/contacts/merge';
import { MergeCustomers } from './schemas';

export const handler = route(
  { scope: 'contacts:write', body: MergeCustomers, response: customerMerge },
  async ({ body, tenant, now, unit }) => mergeCustomers(unit, tenant, body.baseId, body.mergeeId, now),
);
