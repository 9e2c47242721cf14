import { route } from '../../../shared/http/route';
import { listOf } from '../../../shared/views/common';
import { definition } from '../../../shared/views/workflows';
import { ListQuery, paginationOf } from '../../../shared/http/pagination';
import { workflowVersions } from '../../../shared/workflows/definitions';
import { IdParams } from './schemas';

export const handler = route(
  { scope: 'workflows:read', params: IdParams, query: ListQuery, response: listOf('versions', definition) },
  async ({ params, query, tenant }) => {
    const { versions, total, nextCursor } = await workflowVersions(tenant, params.id, query);
    return { versions, pagination: paginationOf(total, query, nextCursor) };
  },
);
