import { route } from '../../../shared/http/route';
import { deletion } from '../../../shared/views/deletion';
import { pipeline } from '../../../shared/views/crm';
import { deletePipeline } from '../../../shared/crm/pipelines';
import { IdParams } from '../../../shared/http/params';

export const handler = route(
  { scope: 'crm:delete', params: IdParams, response: deletion('pipeline', pipeline), errors: ['CONFLICT'] },
  async ({ params, tenant, now, unit }) => ({
    pipeline: await deletePipeline(unit, tenant, params.id, now),
    deleted: true as const,
  }),
);
