import { route } from '../../../shared/http/route';
import { listOf } from '../../../shared/views/common';
import { activity } from '../../../shared/views/crm';
import { ListQuery, paginationOf } from '../../../shared/http/pagination';
import { entityTimeline, type TimelineOwner } from '../../../shared/crm/activities';
import { IdParams } from '../../../shared/http/params';

/** `GET …/{id}/activities` under a lead or a customer: that entity's timeline, newest first (404 for an unknown entity). */
export const timeline = (owner: TimelineOwner) =>
  route(
    { scope: 'crm:read', params: IdParams, query: ListQuery, response: listOf('activities', activity) },
    async ({ params, query, tenant }) => {
      const { activities, total, nextCursor } = await entityTimeline(tenant, owner, params.id, query);
      return { activities, pagination: paginationOf(total, query, nextCursor) };
    },
  );
