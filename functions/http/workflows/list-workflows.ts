import { route } from '../../../shared/http/route';
import { listOf } from '../../../shared/views/common';
import { definition } from '../../../shared/views/workflows';
import { ListQuery, paginationOf } from '../../../shared/http/pagination';
import { listWorkflows } from '../../../shared/workflows/definitions';

export const handler = route(
  { scope: 'workflows:read', query: ListQuery, response: listOf('workflows', definition) },
  async ({ query, tenant }) => {
    const { workflows, total, nextCursor } = await listWorkflows(tenant, query);
    return { workflows, pagination: paginationOf(total, query, nextCursor) };
  },
);
