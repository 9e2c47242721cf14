import { route } from '../../../shared/http/route';
import { moveLeadToStage } from '../../../shared/data/leads';
import { IdParams, MoveLead } from './schemas';

export const handler = route({ scope: 'crm:update', params: IdParams, body: MoveLead }, async ({ params, body, tenant, now }) => ({
  lead: await moveLeadToStage(tenant, params.id, body, now),
}));
