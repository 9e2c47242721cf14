import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { lead } from '../../../shared/views/crm';
import { deleteLead } from '../../../shared/crm/leads';
import { IdParams } from './schemas';

export const handler = route(
  { scope: 'crm:delete', params: IdParams, response: z.strictObject({ lead }) },
  async ({ params, tenant, now }) => ({
    lead: await deleteLead(tenant, params.id, now),
  }),
);
