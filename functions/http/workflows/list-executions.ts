import { route } from '../../../shared/http/route';
import { listOf } from '../../../shared/views/common';
import { execution } from '../../../shared/views/workflows';
import { paginationOf } from '../../../shared/http/pagination';
import { listExecutions } from '../../../shared/workflows/executions';
import { ExecutionsQuery } from './schemas';

export const handler = route(
  { scope: 'workflows:read', query: ExecutionsQuery, response: listOf('executions', execution) },
  async ({ query, tenant }) => {
    const { executions, total, nextCursor } = await listExecutions(tenant, query, query);
    return { executions, pagination: paginationOf(total, query, nextCursor) };
  },
);
