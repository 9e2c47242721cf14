import { route } from '../../../shared/http/route';
import { listOf } from '../../../shared/views/common';
import { lead } from '../../../shared/views/crm';
import { paginationOf } from '../../../shared/http/pagination';
import { listLeads } from '../../../shared/crm/leads';
import { LeadFilters } from './schemas/leads';

export const handler = route({ scope: 'crm:read', query: LeadFilters, response: listOf('leads', lead) }, async ({ query, tenant }) => {
  const { page, limit, cursor, ...filters } = query;
  const { leads, total, nextCursor } = await listLeads(tenant, filters, { page, limit, cursor });
  return { leads, pagination: paginationOf(total, query, nextCursor) };
});
