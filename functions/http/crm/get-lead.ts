import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { lead } from '../../../shared/views/crm';
import { requireLead } from '../../../shared/crm/leads';
import { IdParams } from '../../../shared/http/params';

export const handler = route({ scope: 'crm:read', params: IdParams, response: z.strictObject({ lead }) }, async ({ params, tenant }) => ({
  lead: (await requireLead(tenant, params.id)).lead,
}));
