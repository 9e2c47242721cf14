import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { lead } from '../../../shared/views/crm';
import { createLead } from '../../../shared/crm/leads';
import { CreateLead } from './schemas/leads';

export const handler = route(
  { scope: 'crm:create', body: CreateLead, status: 201, response: z.strictObject({ lead }) },
  async ({ body, tenant, now, unit }) => ({
    lead: await createLead(unit, tenant, body, now),
  }),
);
