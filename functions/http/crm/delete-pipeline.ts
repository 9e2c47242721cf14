import { route } from '../../../shared/http/route';
import { deletePipeline } from '../../../shared/data/pipelines';
import { IdParams } from './schemas';

export const handler = route({ scope: 'crm:delete', params: IdParams, errors: ['CONFLICT'] }, async ({ params, tenant, now }) => ({
  pipeline: await deletePipeline(tenant, params.id, now),
}));
