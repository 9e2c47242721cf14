import { route } from '../../../shared/http/route';
import { deleteCustomer } from '../../../shared/data/customers';
import { IdParams } from './schemas';

export const handler = route({ scope: 'contacts:write', params: IdParams }, async ({ params, workspaceId, now }) => ({
  customer: await deleteCustomer(workspaceId, params.id, now),
  deleted: true,
}));
