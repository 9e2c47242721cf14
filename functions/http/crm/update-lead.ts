import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { lead } from '../../../shared/views/crm';
import { updateLead } from '../../../shared/crm/leads';
import { IdParams } from '../../../shared/http/params';
import { UpdateLead } from './schemas/leads';

export const handler = route(
  { scope: 'crm:update', params: IdParams, body: UpdateLead, response: z.strictObject({ lead }) },
  async ({ params, body, tenant, now, unit }) => ({
    lead: await updateLead(unit, tenant, params.id, body, now),
  }),
);
