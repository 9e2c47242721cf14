import { route } from '../../../shared/http/route';
import { deleteLead } from '../../../shared/data/leads';
import { IdParams } from './schemas';

export const handler = route({ scope: 'crm:delete', params: IdParams }, async ({ params, tenant, now }) => ({
  lead: await deleteLead(tenant, params.id, now),
}));
