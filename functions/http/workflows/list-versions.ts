import { route } from '../../../shared/http/route';
import { listOf } from '../../../shared/views/common';
import { definition } from '../../../shared/views/workflows';
import { ListQuery, paginationOf } from '../../../shared/http/pagination';
import { listVersions, requireWorkflow } from '../../../shared/data/workflows';
import { IdParams } from './schemas';

/** Every saved version, newest first: `total` is the current version (versions are numbered from 1 and never deleted). */
export const handler = route(
  { scope: 'workflows:read', params: IdParams, query: ListQuery, response: listOf('versions', definition) },
  async ({ params, query, tenant }) => {
    const { workflow } = await requireWorkflow(tenant, params.id);
    const { versions, nextCursor } = await listVersions(tenant, params.id, query);
    return { versions, pagination: paginationOf(workflow.version, query, nextCursor) };
  },
);
