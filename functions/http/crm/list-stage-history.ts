import { route } from '../../../shared/http/route';
import { listOf } from '../../../shared/views/common';
import { stageStay } from '../../../shared/views/crm';
import { ListQuery, paginationOf } from '../../../shared/http/pagination';
import { stageHistory } from '../../../shared/crm/leads';
import { IdParams } from '../../../shared/http/params';

export const handler = route(
  { scope: 'crm:read', params: IdParams, query: ListQuery, response: listOf('history', stageStay) },
  async ({ params, query, tenant }) => {
    const { history, total, nextCursor } = await stageHistory(tenant, params.id, query);
    return { history, pagination: paginationOf(total, query, nextCursor) };
  },
);
