import { route } from '../../../shared/http/route';
import { deletion } from '../../../shared/views/deletion';
import { lead } from '../../../shared/views/crm';
import { deleteLead } from '../../../shared/crm/leads';
import { IdParams } from '../../../shared/http/params';

export const handler = route(
  { scope: 'crm:delete', params: IdParams, response: deletion('lead', lead) },
  async ({ params, tenant, now, unit }) => ({
    lead: await deleteLead(unit, tenant, params.id, now),
    deleted: true as const,
  }),
);
