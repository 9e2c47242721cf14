import { route } from '../../../shared/http/route';
import { requireCustomer } from '../../../shared/data/customers';
import { IdParams } from './schemas';

export const handler = route({ scope: 'contacts:read', params: IdParams }, async ({ params, workspaceId }) => ({
  customer: (await requireCustomer(workspaceId, params.id)).customer,
}));
