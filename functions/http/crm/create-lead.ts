import { route } from '../../../shared/http/route';
import { createLead } from '../../../shared/data/leads';
import { CreateLead } from './schemas';

export const handler = route({ scope: 'crm:create', body: CreateLead, status: 201 }, async ({ body, tenant, now }) => ({
  lead: await createLead(tenant, body, now),
}));
