import type { Tenant } from '../../../shared/domain/auth/tenant';
import { route } from '../../../shared/http/route';
import { listOf } from '../../../shared/views/common';
import { activity } from '../../../shared/views/crm';
import { ListQuery, paginationOf } from '../../../shared/http/pagination';
import { listActivities } from '../../../shared/data/activities';
import { IdParams } from './schemas';

/** `GET …/{id}/activities` under a lead or a customer: that entity's timeline, newest first (404 for an unknown entity). */
export const timeline = (filter: 'leadId' | 'customerId', requireEntity: (tenant: Tenant, id: string) => Promise<unknown>) =>
  route(
    { scope: 'crm:read', params: IdParams, query: ListQuery, response: listOf('activities', activity) },
    async ({ params, query, tenant }) => {
      await requireEntity(tenant, params.id);
      const { activities, total, nextCursor } = await listActivities(tenant, { [filter]: params.id }, query);
      return { activities, pagination: paginationOf(total, query, nextCursor) };
    },
  );
