import { route } from '../../../shared/http/route';
import { listOf } from '../../../shared/views/common';
import { pipeline } from '../../../shared/views/crm';
import { ListQuery, paginationOf } from '../../../shared/http/pagination';
import { listPipelines } from '../../../shared/crm/pipelines';

export const handler = route(
  { scope: 'crm:read', query: ListQuery, response: listOf('pipelines', pipeline) },
  async ({ query, tenant }) => {
    const { pipelines, total, nextCursor } = await listPipelines(tenant, query);
    return { pipelines, pagination: paginationOf(total, query, nextCursor) };
  },
);
