import { route } from '../../../shared/http/route';
import { requireLead } from '../../../shared/data/leads';
import { IdParams } from './schemas';

export const handler = route({ scope: 'crm:read', params: IdParams }, async ({ params, tenant }) => ({
  lead: (await requireLead(tenant, params.id)).lead,
}));
